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
 * Results follow musl, the C library of the native replay (which runs the real functions):
 * memcmp, strcmp and strncmp return the difference of the first differing bytes as unsigned
 * char. memcpy, strcpy, strncpy and strcat of overlapping objects are undefined behaviour in C;
 * here they copy forward byte by byte. Only unsigned arithmetic, so no overflow check fires in
 * these bodies under --property no-overflow. */

typedef __SIZE_TYPE__ size_t;

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
        if (l[i] != r[i]) return l[i] - r[i];
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
    return l[i] - r[i];
}

int strncmp(const char *left, const char *right, size_t limit) {
    const unsigned char *l = (const unsigned char *)left, *r = (const unsigned char *)right;
    if (limit == 0) return 0;
    size_t i = 0;
    while (i + 1 < limit && l[i] && l[i] == r[i]) i++;
    return l[i] - r[i];
}

char *strchr(const char *string, int character) {
    size_t i = 0;
    for (;; i++) {
        if (string[i] == (char)character) return (char *)string + i;
        if (!string[i]) return 0;
    }
}

char *strcat(char *destination, const char *source) {
    size_t end = 0;
    while (destination[end]) end++;
    size_t i = 0;
    while ((destination[end + i] = source[i]) != 0) i++;
    return destination;
}
