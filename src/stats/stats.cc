#include "stats/stats.h"
