/* An allocator that never hands an address out twice, for tests/test_address_differential.py:
 * linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=free, the program's heap calls get fresh
 * 16-byte-aligned blocks of a static arena, and free releases nothing. Beside glibc's malloc
 * (which hands a freed block out again at once) it is the other end of what an allocator may
 * do. Independent of llumc: it shares no code with llumc/replay_harness.c. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static unsigned char arena[1 << 20] __attribute__((aligned(16)));
static size_t used;

void *__wrap_malloc(size_t size) {
    size_t rounded = (size + 15) & ~(size_t)15;
    if (rounded > sizeof arena - used) abort();
    void *block = arena + used;
    used += rounded + 16; /* a gap: one past a block's end is no other block's start */
    return block;
}

void *__wrap_calloc(size_t count, size_t size) {
    if (size && count > (size_t)-1 / size) abort();
    void *block = __wrap_malloc(count * size);
    memset(block, 0, count * size);
    return block;
}

void __wrap_free(void *pointer) { (void)pointer; }
