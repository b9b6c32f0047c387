#include "build/build.h"
