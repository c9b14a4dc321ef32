#ifndef MAGMA_CYAJL_SHIM_H
#define MAGMA_CYAJL_SHIM_H

#include <stddef.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

/* yajl_config is variadic, which Swift cannot call: one wrapper per option type. */
static inline int magma_yajl_config(yajl_handle h, yajl_option option, int enabled) {
    return yajl_config(h, option, enabled);
}

#endif
