#ifndef MAGMA_CYAJL_SHIM_H
#define MAGMA_CYAJL_SHIM_H

#include <stddef.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

/* yajl_config is variadic, which Swift cannot call: one wrapper per option type. */
static inline int magma_yajl_config(yajl_handle h, yajl_option option, int enabled) {
    return yajl_config(h, option, enabled);
}

/* The head of yajl 2.1.0's private `struct yajl_handle_t` (src/yajl_parser.h), as far as
 * `bytesConsumed`: the offset its lexer reads the buffer being parsed from. Moving it inside a
 * start_map / start_array callback makes yajl go on lexing from there. Used only after
 * `magma_yajl_layout_matches` has said yes for the handle (the Tokenizer checks it at first use). */
struct magma_yajl_handle_head {
    const yajl_callbacks *callbacks;
    void *ctx;
    void *lexer;
    const char *parseError;
    size_t bytesConsumed;
};

/* Whether `h` looks as the layout above says: the callbacks and context it was made with where
 * they should be, `bytesConsumed` agreeing with yajl's own accessor, and the library 2.1.x. */
static inline int magma_yajl_layout_matches(yajl_handle h, const yajl_callbacks *callbacks, void *ctx) {
    const struct magma_yajl_handle_head *head = (const struct magma_yajl_handle_head *)h;
    int version = yajl_version();
    return version >= 20100 && version < 20200 && head->callbacks == callbacks && head->ctx == ctx
        && head->bytesConsumed == yajl_get_bytes_consumed(h);
}

/* Sets the offset yajl's lexer reads the buffer being parsed from (inside a callback). */
static inline void magma_yajl_set_bytes_consumed(yajl_handle h, size_t offset) {
    ((struct magma_yajl_handle_head *)h)->bytesConsumed = offset;
}

#endif
