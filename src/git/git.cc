#include "git/git.h"
