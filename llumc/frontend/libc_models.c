/* Bodies for <string.h> functions, linked into a program's module by llumc's front end
 * (llumc/frontend/libcmodels.py) when the program calls one of them without a body of its own,
 * and for memset/memcpy/memmove whose length stays nondeterministic after the front end's
 * passes (a constant length keeps the memory model's one wide read and write).
 *
 * Every access is a plain byte load or store, so the memory model checks each like one of the
 * program's own (bounds, liveness, NULL) and copies uninitialised bytes as the nondeterministic
 * values they are. Compiled without debug information: once inlined, every instruction has the
 * line of the call in the program, so a fault names the call site.
 *
 * memcmp, strcmp and strncmp return any value of the sign C prescribes (a fresh value, as the
 * result of a dropped output call is: llumc/frontend/libcalls.py): C libraries differ (glibc
 * returns the difference of the bytes, zig's libc of the replay -1 or 1), and a TRUE must hold
 * for each. memcpy, strcpy, strncpy and strcat of overlapping objects are undefined behaviour
 * in C; here they copy forward byte by byte. Arithmetic on sizes is unsigned, so no overflow
 * check fires in these bodies under --property no-overflow. */

typedef __SIZE_TYPE__ size_t;

extern unsigned int __llumc_libret_i32(void);

/* Any int of the sign of `difference` (0 for 0). */
static int any_of_sign(int difference) {
    if (difference == 0) return 0;
    unsigned int value = __llumc_libret_i32();
    if (difference < 0) return (int)(value | 0x80000000u);
    value &= 0x7fffffffu;
    return value ? (int)value : 1;
}

void *__llumc_memset(void *destination, int value, size_t length) {
    unsigned char *d = destination;
    for (size_t i = 0; i < length; i++) d[i] = (unsigned char)value;
    return destination;
}

void *__llumc_memcpy(void *destination, const void *source, size_t length) {
    unsigned char *d = destination;
    const unsigned char *s = source;
    for (size_t i = 0; i < length; i++) d[i] = s[i];
    return destination;
}

void *__llumc_memmove(void *destination, const void *source, size_t length) {
    unsigned char *d = destination;
    const unsigned char *s = source;
    if (d == s || length == 0) return destination;
    if (d < s) {
        for (size_t i = 0; i < length; i++) d[i] = s[i];
    } else {
        for (size_t i = length; i > 0; i--) d[i - 1] = s[i - 1];
    }
    return destination;
}

int memcmp(const void *left, const void *right, size_t length) {
    const unsigned char *l = left, *r = right;
    for (size_t i = 0; i < length; i++)
        if (l[i] != r[i]) return any_of_sign(l[i] - r[i]);
    return 0;
}

size_t strlen(const char *string) {
    size_t length = 0;
    while (string[length]) length++;
    return length;
}

size_t strnlen(const char *string, size_t limit) {
    size_t length = 0;
    while (length < limit && string[length]) length++;
    return length;
}

char *strcpy(char *destination, const char *source) {
    size_t i = 0;
    while ((destination[i] = source[i]) != 0) i++;
    return destination;
}

char *strncpy(char *destination, const char *source, size_t limit) {
    size_t i = 0;
    for (; i < limit && source[i]; i++) destination[i] = source[i];
    for (; i < limit; i++) destination[i] = 0;
    return destination;
}

int strcmp(const char *left, const char *right) {
    const unsigned char *l = (const unsigned char *)left, *r = (const unsigned char *)right;
    size_t i = 0;
    while (l[i] && l[i] == r[i]) i++;
    return any_of_sign(l[i] - r[i]);
}

int strncmp(const char *left, const char *right, size_t limit) {
    const unsigned char *l = (const unsigned char *)left, *r = (const unsigned char *)right;
    if (limit == 0) return 0;
    size_t i = 0;
    while (i + 1 < limit && l[i] && l[i] == r[i]) i++;
    return any_of_sign(l[i] - r[i]);
}

char *strchr(const char *string, int character) {
    size_t i = 0;
    for (;; i++) {
        if (string[i] == (char)character) return (char *)string + i;
        if (!string[i]) return 0;
    }
}

char *strrchr(const char *string, int character) {
    const char *last = 0;
    for (size_t i = 0;; i++) {
        if (string[i] == (char)character) last = string + i;
        if (!string[i]) return (char *)last;
    }
}

void *memchr(const void *memory, int character, size_t length) {
    const unsigned char *m = memory;
    for (size_t i = 0; i < length; i++)
        if (m[i] == (unsigned char)character) return (void *)(m + i);
    return 0;
}

char *strcat(char *destination, const char *source) {
    size_t end = 0;
    while (destination[end]) end++;
    size_t i = 0;
    while ((destination[end + i] = source[i]) != 0) i++;
    return destination;
}
