#ifndef CGRAPHVIZ_SHIM_H
#define CGRAPHVIZ_SHIM_H

// gvc.h declares gvContextPlugins, gvLayout and gvRenderData, and pulls in
// cgraph.h (agopen, agnode, agedge, agsafeset, agget), gvcext.h (lt_symlist_t)
// and gvplugin.h (gvplugin_library_t).
#include <graphviz/gvc.h>

/// The parts of Dl_info that FlowLayout needs, under a name of our own.
typedef struct {
    const char *fileName;
    void *fileBase;
    const char *symbolName;
    void *symbolAddress;
} cgraphviz_dl_info;

#if defined(__APPLE__)
#include <dlfcn.h>
static inline int cgraphviz_dladdr(const void *address, cgraphviz_dl_info *info) {
    Dl_info raw;
    int found = dladdr(address, &raw);
    info->fileName = raw.dli_fname;
    info->fileBase = raw.dli_fbase;
    info->symbolName = raw.dli_sname;
    info->symbolAddress = raw.dli_saddr;
    return found;
}
#else
// glibc declares dladdr and Dl_info only under _GNU_SOURCE, which Swift's Glibc
// module is not built with, so bind our name to the libc symbol directly;
// cgraphviz_dl_info has Dl_info's layout.
extern int cgraphviz_dladdr(const void *address, cgraphviz_dl_info *info) __asm__("dladdr");
#endif

#endif
