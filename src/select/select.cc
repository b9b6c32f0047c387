#include "select/select.h"
