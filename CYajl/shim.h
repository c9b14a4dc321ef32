#ifndef MAGMA_CYAJL_SHIM_H
#define MAGMA_CYAJL_SHIM_H

#include <stddef.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

/* yajl_config is variadic, which Swift cannot call: one wrapper per option type. */
static inline int magma_yajl_config(yajl_handle h, yajl_option option, int enabled) {
    return yajl_config(h, option, enabled);
}

/* The head of yajl 2.1.0's private `struct yajl_handle_t` (src/yajl_parser.h), as far as its
 * state stack. `bytesConsumed` is the offset its lexer reads the buffer being parsed from: moving
 * it inside a start_map / start_array callback makes yajl go on lexing from there. The state
 * stack's top is what the parser expects next: set after a callback cancelled the parse, it lets
 * yajl be fed again from a later point of the buffer (see `magma_yajl_resume_after_value`). Used
 * only after `magma_yajl_layout_matches` has said yes for the handle (checked at first use). */
struct magma_yajl_handle_head {
    const yajl_callbacks *callbacks;
    void *ctx;
    void *lexer;
    const char *parseError;
    size_t bytesConsumed;
    void *decodeBuf;
    struct {
        unsigned char *stack;
        size_t size;
        size_t used;
        void *yaf;
    } stateStack;
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

/* yajl 2.1.0's `yajl_state_map_got_val` (src/yajl_parser.h): a value of an object has been read,
 * `,` or `}` comes next. */
#define MAGMA_YAJL_STATE_MAP_GOT_VAL 7

/* After a callback inside an object cancelled the parse (yajl's state is then "parse error"):
 * makes the parser expect what follows a member's value, so that feeding it the bytes after a
 * value read elsewhere goes on as if yajl had read the value itself. Returns 0 when the stack
 * does not look as expected (nothing is changed then). */
static inline int magma_yajl_resume_after_value(yajl_handle h) {
    struct magma_yajl_handle_head *head = (struct magma_yajl_handle_head *)h;
    /* 2: yajl_state_parse_error, which a cancelling callback leaves on top. */
    if (head->stateStack.stack == NULL || head->stateStack.used < 2
        || head->stateStack.stack[head->stateStack.used - 1] != 2) return 0;
    head->stateStack.stack[head->stateStack.used - 1] = MAGMA_YAJL_STATE_MAP_GOT_VAL;
    head->parseError = NULL;
    return 1;
}

/* yajl 2.1.0's lexer (src/yajl_lex.c, `struct yajl_lexer_t`) as far as the fields below. */
struct magma_yajl_lexer_head {
    size_t lineOff;
    size_t charOff;
    unsigned int error; /* yajl_lex_error */
    void *buf;
    size_t bufOff;
    unsigned int bufInUse;
    unsigned int allowComments;
    unsigned int validateUTF8;
};

/* yajl 2.1.0's `yajl_lex_unallowed_comment` (src/yajl_lex.h). */
#define MAGMA_YAJL_LEX_UNALLOWED_COMMENT 10

/* After yajl_parse failed on a handle made without comments and with yajl's UTF-8 check off (as
 * the Tokenizer makes them): 1 when its lexer stopped at a `/` it unread (a comment where none
 * is allowed: yajl's offset is then the `/`'s own, not the end of a token it read), 0 when not,
 * -1 when the handle does not look as this expects. */
static inline int magma_yajl_stopped_at_slash(yajl_handle h) {
    const struct magma_yajl_handle_head *head = (const struct magma_yajl_handle_head *)h;
    int version = yajl_version();
    if (version < 20100 || version >= 20200 || head->lexer == NULL
        || head->bytesConsumed != yajl_get_bytes_consumed(h)) return -1;
    const struct magma_yajl_lexer_head *lexer = (const struct magma_yajl_lexer_head *)head->lexer;
    if (lexer->allowComments != 0 || lexer->validateUTF8 != 0 || lexer->bufInUse > 1) return -1;
    return lexer->error == MAGMA_YAJL_LEX_UNALLOWED_COMMENT;
}

#endif
