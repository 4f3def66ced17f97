#ifndef FLOWSITE_CCMARK_SHIM_H
#define FLOWSITE_CCMARK_SHIM_H
#include <cmark.h>
#endif
