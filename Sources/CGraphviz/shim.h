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


#include <stdio.h>
#include <stdlib.h>

// Reading a layout straight from the structs `gvLayout` fills in, instead of having Graphviz
// write every attribute as text (`attach_attrs`) and parsing it back. Each number is given with
// the five significant digits the dot format writes, so a map is the same to the byte either
// way. The process runs in the C locale (nothing in FlowSite calls setlocale), which both
// snprintf and strtod use here.

static inline double cgraphviz_as_written(double value) {
    char text[32];
    snprintf(text, sizeof text, "%.5g", value);
    return strtod(text, NULL);
}

/// The graph's bounding box in points: left, bottom, right, top.
static inline void cgraphviz_bounding_box(Agraph_t *graph, double box[4]) {
    boxf bb = GD_bb(graph);
    box[0] = cgraphviz_as_written(bb.LL.x);
    box[1] = cgraphviz_as_written(bb.LL.y);
    box[2] = cgraphviz_as_written(bb.UR.x);
    box[3] = cgraphviz_as_written(bb.UR.y);
}

/// A node's centre in points and its width and height in inches.
static inline void cgraphviz_node_box(Agnode_t *node, double box[4]) {
    box[0] = cgraphviz_as_written(ND_coord(node).x);
    box[1] = cgraphviz_as_written(ND_coord(node).y);
    box[2] = cgraphviz_as_written((ND_lw(node) + ND_rw(node)) / 72.0);
    box[3] = cgraphviz_as_written(ND_ht(node) / 72.0);
}

/// How many points the first spline of an edge has, or -1 when the edge was not routed.
static inline int cgraphviz_edge_point_count(Agedge_t *edge) {
    splines *routed = ED_spl(edge);
    if (routed == NULL || routed->size < 1) return -1;
    return routed->list[0].size;
}

/// The first spline's points as x, y pairs into `points` (room for `count` pairs); its arrow's
/// tip into `tip`, returning whether it has one.
static inline int cgraphviz_edge_spline(Agedge_t *edge, double *points, int count, double tip[2]) {
    bezier *curve = &ED_spl(edge)->list[0];
    for (int index = 0; index < count && index < curve->size; index++) {
        points[2 * index] = cgraphviz_as_written(curve->list[index].x);
        points[2 * index + 1] = cgraphviz_as_written(curve->list[index].y);
    }
    if (!curve->eflag) return 0;
    tip[0] = cgraphviz_as_written(curve->ep.x);
    tip[1] = cgraphviz_as_written(curve->ep.y);
    return 1;
}

/// The centre of an edge's label into `centre`, returning whether it has a label.
static inline int cgraphviz_edge_label_centre(Agedge_t *edge, double centre[2]) {
    textlabel_t *label = ED_label(edge);
    if (label == NULL) return 0;
    centre[0] = cgraphviz_as_written(label->pos.x);
    centre[1] = cgraphviz_as_written(label->pos.y);
    return 1;
}

#endif
