#ifndef HOLOCRON_CCMARK_SHIM_H
#define HOLOCRON_CCMARK_SHIM_H
#include <cmark.h>
#endif
