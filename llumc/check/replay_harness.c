/* llumc replay harness: linked with the program under test to replay a counterexample.
 *
 * Every SV-COMP primitive is reached through the linker's --wrap (set up by llumc/check/replay.py), so
 * the harness wins even where the program defines the function itself (reach_error,
 * __VERIFIER_nondet_int, ...): SV-COMP's property is the *call* of the error function, whatever
 * its body. Only __VERIFIER_assert is a weak default: a program's own definition is kept.
 *
 * The harness calls no libc function at all: in the static link a program's own `read`, `write`,
 * `open`, `malloc`, `getenv`, `exit`... (SV-COMP programs define such names with unrelated
 * meanings, e.g. `void read(void)`) would replace libc's and the harness would run the program's
 * code instead. So it makes raw system calls (inline asm), keeps its data in static buffers and
 * parses numbers and the environment itself. Only headers (types, constants) come from libc;
 * the one exception are the checked <string.h> functions below (__llumc_replay_strlen, ...),
 * which call the library's function after their checks and are called only where the program
 * defines no function of that name.
 *
 * Environment:
 *   LLUMC_REPLAY_VALUES  file with the recorded nondet values, one decimal integer per line
 *   LLUMC_REPLAY_REPORT  file the harness writes events to (one line each, see emit())
 *   LLUMC_REPLAY_UNINIT  optional: `ID VALUE` pairs for uninitialised locals (see __llumc_replay_uninit)
 *   LLUMC_REPLAY_COUNT   file of 8 bytes, mapped shared: the number of values consumed so far,
 *                        readable even after the process was killed on timeout
 *   LLUMC_REPLAY_SITES   optional: file the harness sizes to 8 bytes per recorded value and maps
 *                        shared; the Nth value's slot gets the return address of the nondet
 *                        call that took it (random tests: llumc/check/testing.py names the
 *                        calls' lines from them)
 *   LLUMC_REPLAY_LEAKS   optional, set: valid-memtrack. Once the recorded values are used up each
 *                        nondet value is 0 (any continuation is a run of the program), and when
 *                        the program's main returns (renamed __llumc_replay_main by the front
 *                        end's text; the harness's weak main calls it) every live heap block that
 *                        no pointer reaches from the program's globals (__llumc_replay_roots) is
 *                        a leak
 *
 * Report lines (space separated, addresses in hex; frames are return addresses, innermost
 * first, walked along the frame-pointer chain of the -O0 program):
 *   error-call NAME CONSUMED FRAMES...
 *   assert CONSUMED LINE FRAMES...             (__assert_fail: the line comes from assert())
 *   trap SIGNAL KIND CONSUMED PC FRAMES...     (KIND: ud1's clang check number, -1 otherwise)
 *   signal SIGNAL CONSUMED PC FRAMES...
 *   abort CONSUMED FRAMES...
 *   diverged CONSUMED                          (asked for more values than recorded)
 *   leak ALLOCATION CONSUMED                   (main returned; heap allocation #ALLOCATION, from 0,
 *                                               is live and unreachable from the globals)
 *   assume-failed CONSUMED FRAMES...
 *   bad-values N                               (the Nth value in the file is malformed)
 *   no-values                                  (LLUMC_REPLAY_VALUES set but not readable)
 * Every path here is async-signal-safe: raw system calls only.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>

#define LLUMC_EXIT_EVENT 86 /* exit code after a reported event (the report file says which) */
#define LLUMC_MAX_VALUES 1000000
#define LLUMC_MAX_FRAMES 16
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

/* musl and glibc both define __environ (environ is a weak alias a program could replace). */
extern char **__environ;

static unsigned long long values[LLUMC_MAX_VALUES];
static long long value_count;
static volatile long long consumed_fallback;
static volatile long long *consumed = &consumed_fallback;
static unsigned long long *value_sites; /* LLUMC_REPLAY_SITES, mapped: one slot per value */
static int report_fd = -1;
static char *stack_top;
static int leak_check; /* LLUMC_REPLAY_LEAKS */

/* ------------------------------------------------------------------ raw system calls */

static long raw_syscall(long number, long a, long b, long c, long d) {
    long result;
#if defined(__x86_64__)
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
#elif defined(__i386__)
    __asm__ volatile("int $0x80"
                     : "=a"(result)
                     : "a"(number), "b"(a), "c"(b), "d"(c), "S"(d)
                     : "memory");
#else
#error "llumc replay: x86 targets only"
#endif
    return result; /* -errno on failure */
}

static int sys_open(const char *path, int flags, int mode) {
    return (int)raw_syscall(SYS_open, (long)path, flags, mode, 0);
}
static long sys_read(int fd, void *buffer, unsigned long size) {
    return raw_syscall(SYS_read, fd, (long)buffer, (long)size, 0);
}
static long sys_write(int fd, const void *buffer, unsigned long size) {
    return raw_syscall(SYS_write, fd, (long)buffer, (long)size, 0);
}
static void sys_close(int fd) { raw_syscall(SYS_close, fd, 0, 0, 0); }
static _Noreturn void sys_exit(int code) {
    for (;;) raw_syscall(SYS_exit_group, code, 0, 0, 0);
}

/* A shared mapping of the first `size` bytes of `fd`; 0 on failure. */
static void *sys_map_shared(int fd, unsigned long size) {
    long address;
#if defined(__x86_64__)
    register long r8 __asm__("r8") = fd;
    register long r9 __asm__("r9") = 0;
    register long r10 __asm__("r10") = MAP_SHARED;
    __asm__ volatile("syscall"
                     : "=a"(address)
                     : "a"((long)SYS_mmap), "D"(0L), "S"((long)size), "d"((long)(PROT_READ | PROT_WRITE)),
                       "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
#else
    /* i386: syscall 90 is the old mmap, which takes its six arguments in memory. */
    unsigned long arguments[6] = {0, size, PROT_READ | PROT_WRITE, MAP_SHARED, (unsigned long)fd, 0};
    address = raw_syscall(SYS_mmap, (long)arguments, 0, 0, 0);
#endif
    return (unsigned long)address > -4096UL ? 0 : (void *)address;
}

/* The kernel's struct sigaction (not libc's: the mask is the kernel's 64-bit set). */
struct kernel_sigaction {
    void (*handler)(int, siginfo_t *, void *);
    unsigned long flags;
    void (*restorer)(void);
    unsigned long mask[2];
};

/* x86-64 signal frames must name a restorer; the handler never returns, but the kernel insists. */
void llumc_replay_restore_rt(void);
#if defined(__x86_64__)
__asm__(".text\n"
        "llumc_replay_restore_rt:\n"
        "  movq $15, %rax\n" /* rt_sigreturn */
        "  syscall\n"
        "  hlt\n");
#else
__asm__(".text\n"
        "llumc_replay_restore_rt:\n"
        "  movl $173, %eax\n" /* rt_sigreturn */
        "  int $0x80\n"
        "  hlt\n");
#endif

static void sys_handle(int signal_number, void (*handler)(int, siginfo_t *, void *)) {
    struct kernel_sigaction action = {handler, SA_SIGINFO | SA_ONSTACK | SA_RESTORER,
                                      llumc_replay_restore_rt, {0, 0}};
    raw_syscall(SYS_rt_sigaction, signal_number, (long)&action, 0, 8);
}

static const char *environment(const char *name) {
    for (char **entry = __environ; entry && *entry; entry++) {
        const char *text = *entry, *wanted = name;
        while (*wanted && *text == *wanted) text++, wanted++;
        if (!*wanted && *text == '=') return text + 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ async-signal-safe output */

static char line_buffer[1024];
static unsigned long line_length;

static void put_text(const char *text) {
    while (*text && line_length < sizeof line_buffer - 2) line_buffer[line_length++] = *text++;
}

static void put_hex(uintptr_t value) {
    char digits[2 * sizeof value + 3];
    int n = 0;
    do {
        digits[n++] = "0123456789abcdef"[value & 15];
        value >>= 4;
    } while (value);
    put_text(" 0x");
    while (n > 0 && line_length < sizeof line_buffer - 2) line_buffer[line_length++] = digits[--n];
}

static void put_int(long long value) {
    char digits[24];
    int n = 0;
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    do {
        digits[n++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    put_text(" ");
    if (value < 0) put_text("-");
    while (n > 0 && line_length < sizeof line_buffer - 2) line_buffer[line_length++] = digits[--n];
}

/* Return addresses along the frame-pointer chain starting at `frame`, kept inside the stack
 * (below the environment block) so that a libc frame without a frame pointer ends the walk
 * instead of crashing it. */
static void put_frames(void **frame) {
    for (int depth = 0; depth < LLUMC_MAX_FRAMES && frame; depth++) {
        char *here = (char *)frame;
        if (((uintptr_t)here & (sizeof(void *) - 1)) || !stack_top || here >= stack_top) break;
        void *return_address = frame[1];
        if (!return_address) break;
        put_hex((uintptr_t)return_address);
        void **next = (void **)frame[0];
        if ((char *)next <= here) break;
        frame = next;
    }
}

static void emit(void) {
    line_buffer[line_length++] = '\n';
    if (report_fd >= 0) sys_write(report_fd, line_buffer, line_length);
    line_length = 0;
}

static _Noreturn void finish(void) {
    sys_exit(LLUMC_EXIT_EVENT);
}

/* ------------------------------------------------------------------ set-up */

static _Noreturn void bad_values(long long line) {
    put_text("bad-values");
    put_int(line);
    emit();
    finish();
}

/* Decimal integers separated by white space (a leading '-' allowed; a negative value is kept as
 * its two's complement), read in chunks into a static table. */
static unsigned long long *parse_target;
static long long *parse_count, parse_limit;
static unsigned long long parsed_magnitude;
static int parsed_digits, parsed_negative;

static void end_number(void) {
    if (parsed_negative && !parsed_digits) bad_values(*parse_count + 1);
    if (parsed_digits) {
        if (*parse_count >= parse_limit) bad_values(*parse_count + 1);
        parse_target[(*parse_count)++] = parsed_negative ? 0ULL - parsed_magnitude : parsed_magnitude;
    }
    parsed_magnitude = 0, parsed_digits = 0, parsed_negative = 0;
}

static void parse_byte(char c) {
    if (c >= '0' && c <= '9') {
        unsigned digit = (unsigned)(c - '0');
        if (parsed_magnitude > (~0ULL - digit) / 10) bad_values(*parse_count + 1); /* beyond 64 bits */
        parsed_magnitude = parsed_magnitude * 10 + digit;
        parsed_digits++;
    } else if (c == '-' && !parsed_digits && !parsed_negative) {
        parsed_negative = 1;
    } else if (c == '\n' || c == ' ' || c == '\r' || c == '\t') {
        end_number();
    } else {
        bad_values(*parse_count + 1);
    }
}

static void read_numbers(const char *path, unsigned long long *target, long long *count, long long limit) {
    int fd = sys_open(path, O_RDONLY, 0);
    if (fd < 0) {
        put_text("no-values");
        emit();
        finish();
    }
    parse_target = target, parse_count = count, parse_limit = limit;
    static char chunk[1 << 16];
    for (;;) {
        long got = sys_read(fd, chunk, sizeof chunk);
        if (got < 0) bad_values(*count + 1);
        if (got == 0) break;
        for (long i = 0; i < got; i++) parse_byte(chunk[i]);
    }
    end_number();
    sys_close(fd);
}

/* Memory the valid-memsafety replay watches: the heap (malloc, calloc, realloc, free) and the locals
 * whose lifetime llumc follows (a pointer may outlive their scope; llumc/frontend/lifetimes.py). Each
 * such object gets a block of this arena of its own, never reused unless the counterexample
 * says so (LLUMC_REPLAY_REUSE, below), with a gap after it; the
 * front end's text calls __llumc_replay_access before every load and store of the program,
 * and it traps on an arena address outside every live block: in a gap (past an object's end),
 * in a freed heap block, in a dead local. On the stack or with the real malloc a later
 * object would reuse the bytes and the check could fire on a live one, so no trap here is
 * anything but an invalid access. The trap's caller is the access's line (frame chain). */
#define LLUMC_ARENA_BYTES (1 << 24)
#define LLUMC_MAX_BLOCKS (1 << 18)
#define LLUMC_GAP 16
static unsigned char arena[LLUMC_ARENA_BYTES] __attribute__((aligned(16)));
static unsigned long long arena_used;
static uintptr_t block_start[LLUMC_MAX_BLOCKS], block_end[LLUMC_MAX_BLOCKS];
static unsigned char block_live[LLUMC_MAX_BLOCKS], block_heap[LLUMC_MAX_BLOCKS];
static unsigned long long block_capacity[LLUMC_MAX_BLOCKS];
static long block_count;
/* The block (plus one; 0 in a gap) of each 16-byte granule of the arena: every access of the
 * program is checked, and a search over 100 000 blocks per access made a tree's native run
 * about seven times slower. Blocks start 16-aligned and their gaps are whole granules. */
#define LLUMC_GRANULE 16
static int granule_block[LLUMC_ARENA_BYTES / LLUMC_GRANULE];
_Static_assert(LLUMC_GAP % LLUMC_GRANULE == 0, "a gap is whole granules");

/* The allocator's choices of a counterexample (LLUMC_REPLAY_REUSE: `K J` pairs): the K-th heap
 * allocation of the run (malloc and calloc, counted from 0) gets the block of the J-th, which
 * must be free by then and large enough; every other allocation gets a new block. */
static unsigned long long reuse_pairs[2 * LLUMC_MAX_BLOCKS];
static long long reuse_numbers;
static long heap_block_of[LLUMC_MAX_BLOCKS]; /* heap allocation -> its block */
static long heap_allocations;

static _Noreturn void invalid_access(void) {
    /* ud1l 254(%eax),%eax: a trap of kind 254, which llumc/check/replay.py names */
    __asm__ volatile(".byte 0x0f, 0xb9, 0x40, 0xfe");
    __builtin_unreachable();
}

static _Noreturn void invalid_free(void) {
    /* ud1l 253(%eax),%eax: kind 253, an invalid free (valid-free, where 254 is valid-deref) */
    __asm__ volatile(".byte 0x0f, 0xb9, 0x40, 0xfd");
    __builtin_unreachable();
}

static void *new_block(unsigned long long size, int heap) {
    unsigned long long rounded = ((size + 15) & ~15ULL) + LLUMC_GAP;
    /* out of arena or blocks: no verdict (bad-values), never a wrong one */
    if (rounded > LLUMC_ARENA_BYTES - arena_used || block_count >= LLUMC_MAX_BLOCKS) bad_values(-1);
    unsigned char *start = arena + arena_used;
    for (unsigned long long g = 0; g < (rounded - LLUMC_GAP) / LLUMC_GRANULE; g++)
        granule_block[arena_used / LLUMC_GRANULE + g] = (int)block_count + 1;
    arena_used += rounded;
    block_start[block_count] = (uintptr_t)start, block_end[block_count] = (uintptr_t)start + size;
    block_live[block_count] = 1, block_heap[block_count] = (unsigned char)heap;
    block_capacity[block_count] = rounded - LLUMC_GAP;
    block_count++;
    return start;
}

static long block_at(uintptr_t address) { /* the last block starting at or before address */
    long low = 0, high = block_count - 1;
    while (low < high) {
        long middle = (low + high + 1) / 2;
        if (block_start[middle] <= address) low = middle; else high = middle - 1;
    }
    return block_count && block_start[low] <= address ? low : -1;
}

void *__llumc_replay_local(unsigned long long size) { return new_block(size, 0); }

/* `alloca` called as a function: a program that declares it without <alloca.h> (under ILP32
 * with `unsigned long`, not the builtin's size_t) calls a symbol no C library defines. The
 * model reads it as the builtin (llumc.frontend.compile.alloca_as_instruction); here a block of
 * the arena that lasts until the run ends, where the builtin's is freed at the caller's return:
 * a run that uses it after that is one the model ends in a fault first. Weak: a program's own
 * definition is kept. */
__attribute__((weak)) void *alloca(unsigned long size) { return new_block(size, 0); }

void __llumc_replay_lifetime(void *pointer, int alive) {
    long block = block_at((uintptr_t)pointer);
    if (block >= 0 && block_start[block] == (uintptr_t)pointer && !block_heap[block])
        block_live[block] = (unsigned char)alive;
}

void __llumc_replay_access(void *pointer) {
    uintptr_t address = (uintptr_t)pointer;
    if (address < (uintptr_t)arena || address >= (uintptr_t)arena + arena_used) return;
    long block = (long)granule_block[(address - (uintptr_t)arena) / LLUMC_GRANULE] - 1;
    if (block < 0 || address >= block_end[block] || !block_live[block]) invalid_access();
}

/* SV-COMP's allocation never fails (llumc's model says so too) */
static void *heap_block(unsigned long long size, int zeroed) {
    long k = heap_allocations++;
    if (k >= LLUMC_MAX_BLOCKS) bad_values(-1);
    for (long long i = 0; i + 1 < reuse_numbers; i += 2) {
        if ((long)reuse_pairs[i] != k) continue;
        long j = (long)reuse_pairs[i + 1];
        /* a choice the run cannot follow: no verdict (bad-values), never a wrong one */
        if (j < 0 || j >= k) bad_values(-4);
        long block = heap_block_of[j];
        if (block_live[block] || size > block_capacity[block]) bad_values(-4);
        block_end[block] = block_start[block] + size, block_live[block] = 1;
        if (zeroed)
            for (unsigned long long b = 0; b < size; b++) ((unsigned char *)block_start[block])[b] = 0;
        heap_block_of[k] = block;
        return (void *)block_start[block];
    }
    void *start = new_block(size, 1); /* the arena starts zeroed: a new block is calloc's too */
    heap_block_of[k] = block_count - 1;
    return start;
}

void *__llumc_replay_malloc(unsigned long size) { return heap_block(size, 0); }

void *__llumc_replay_calloc(unsigned long count, unsigned long size) {
    if (size && count > ~0UL / size) bad_values(-3);
    return heap_block((unsigned long long)count * size, 1);
}

void __llumc_replay_free(void *pointer) {
    if (!pointer) return;
    long block = block_at((uintptr_t)pointer);
    /* only the start of a live heap block may be freed: anything else (a double free, a
     * local, a pointer into a block) is invalid; a pointer outside the arena too */
    if (block < 0 || block_start[block] != (uintptr_t)pointer || !block_heap[block] || !block_live[block])
        invalid_free();
    block_live[block] = 0;
}

/* realloc: a new block with the old one's bytes (up to the smaller size), the old one freed
 * (checked as free checks it). A size of 0 (implementation-defined) ends the run without a
 * verdict. */
void *__llumc_replay_realloc(void *pointer, unsigned long size) {
    if (!pointer) return heap_block(size, 0);
    if (!size) bad_values(-3);
    long block = block_at((uintptr_t)pointer);
    if (block < 0 || block_start[block] != (uintptr_t)pointer || !block_heap[block] || !block_live[block])
        invalid_free();
    unsigned long long old_size = block_end[block] - block_start[block];
    unsigned char *moved = heap_block(size, 0);
    for (unsigned long long b = 0; b < old_size && b < size; b++) moved[b] = ((unsigned char *)pointer)[b];
    block_live[block] = 0;
    return moved;
}

/* ------------------------------------------------------------------ leaks (valid-memtrack)
 * The roots: the program's global variables, a table the front end's text appends (start and
 * size of each; weak, so a build without it links). A block is reached when some pointer-sized
 * word at any byte offset of a root or of a reached block holds an address inside it or one
 * past its end: conservative (an integer that looks like an address counts too), so a block
 * reported is reached by no pointer. Locals are no roots: main has returned. */
struct llumc_root { const unsigned char *start; unsigned long long size; };
extern const struct llumc_root __llumc_replay_roots[] __attribute__((weak));
extern const long long __llumc_replay_root_count __attribute__((weak));
extern int __llumc_replay_main(int, char **, char **) __attribute__((weak));

static unsigned char block_reached[LLUMC_MAX_BLOCKS];
static long reached_pending[LLUMC_MAX_BLOCKS];
static long reached_count;

static void reach_from(const unsigned char *start, unsigned long long size) {
    for (unsigned long long offset = 0; offset + sizeof(uintptr_t) <= size; offset++) {
        uintptr_t word = 0; /* (byte by byte: no call of a memcpy the program may define) */
        for (unsigned b = 0; b < sizeof word; b++) word |= (uintptr_t)start[offset + b] << (8 * b);
        if (word < (uintptr_t)arena || word > (uintptr_t)arena + arena_used) continue;
        long block = block_at(word);
        if (block < 0 || block_reached[block] || !block_heap[block] || !block_live[block]) continue;
        if (word > block_end[block]) continue;
        block_reached[block] = 1;
        reached_pending[reached_count++] = block;
    }
}

static void check_leaks(void) {
    if (!&__llumc_replay_root_count) return; /* no table: no roots known, no leak claimed */
    for (long long i = 0; i < __llumc_replay_root_count; i++)
        reach_from(__llumc_replay_roots[i].start, __llumc_replay_roots[i].size);
    while (reached_count) {
        long block = reached_pending[--reached_count];
        reach_from((const unsigned char *)block_start[block], block_end[block] - block_start[block]);
    }
    /* from the latest allocation: the first one met of a reused block is the one holding it */
    for (long k = heap_allocations - 1; k >= 0; k--) {
        long block = heap_block_of[k];
        if (!block_live[block] || block_reached[block]) continue;
        put_text("leak");
        put_int(k);
        put_int(*consumed);
        emit();
        finish();
    }
}

/* Used only where the program's main was renamed (valid-memtrack): its return is the end. */
__attribute__((weak)) int main(int argc, char **argv, char **envp) {
    if (!__llumc_replay_main) return 0;
    int result = __llumc_replay_main(argc, argv, envp);
    if (leak_check) check_leaks();
    return result;
}

/* memset, memcpy and memmove (the program's own calls: clang's intrinsics) and the <string.h>
 * functions llumc models in C (llumc/frontend/libc_models.c) run natively from the C library,
 * unchecked. Under valid-memsafety the front end's text calls these instead: each byte the
 * function touches is checked first, in the order the model's body touches it, exactly as the
 * program's own accesses are (a string is walked up to its terminator, so a missing one traps
 * at the first byte past its object); then the real function runs and gives the result. The
 * trap's caller is the call's line (frame chain). Only called when the program does not define
 * the function itself, so the name here is the C library's. */
typedef __SIZE_TYPE__ llumc_size;
extern llumc_size strlen(const char *);
extern llumc_size strnlen(const char *, llumc_size);
extern char *strcpy(char *, const char *);
extern char *strncpy(char *, const char *, llumc_size);
extern char *strcat(char *, const char *);
extern char *strchr(const char *, int);
extern int strcmp(const char *, const char *);
extern int strncmp(const char *, const char *, llumc_size);
extern int memcmp(const void *, const void *, llumc_size);
extern char *strrchr(const char *, int);
extern void *memchr(const void *, int, llumc_size);

void __llumc_replay_range(const void *pointer, llumc_size length) {
    for (llumc_size i = 0; i < length; i++) __llumc_replay_access((char *)pointer + i);
}

static llumc_size checked_length(const char *string, llumc_size limit) { /* strnlen, checked */
    llumc_size length = 0;
    while (length < limit) {
        __llumc_replay_access((char *)string + length);
        if (!string[length]) break;
        length++;
    }
    return length;
}

llumc_size __llumc_replay_strlen(const char *string) {
    checked_length(string, (llumc_size)-1);
    return strlen(string);
}

llumc_size __llumc_replay_strnlen(const char *string, llumc_size limit) {
    checked_length(string, limit);
    return strnlen(string, limit);
}

char *__llumc_replay_strcpy(char *destination, const char *source) {
    llumc_size length = checked_length(source, (llumc_size)-1);
    __llumc_replay_range(destination, length + 1);
    return strcpy(destination, source);
}

char *__llumc_replay_strncpy(char *destination, const char *source, llumc_size limit) {
    checked_length(source, limit);
    __llumc_replay_range(destination, limit);
    return strncpy(destination, source, limit);
}

char *__llumc_replay_strcat(char *destination, const char *source) {
    llumc_size end = checked_length(destination, (llumc_size)-1);
    llumc_size length = checked_length(source, (llumc_size)-1);
    __llumc_replay_range(destination + end, length + 1);
    return strcat(destination, source);
}

char *__llumc_replay_strchr(const char *string, int character) {
    for (llumc_size i = 0;; i++) {
        __llumc_replay_access((char *)string + i);
        if (string[i] == (char)character || !string[i]) break;
    }
    return strchr(string, character);
}

char *__llumc_replay_strrchr(const char *string, int character) {
    checked_length(string, (llumc_size)-1);
    return strrchr(string, character);
}

void *__llumc_replay_memchr(const void *memory, int character, llumc_size length) {
    const unsigned char *m = memory;
    for (llumc_size i = 0; i < length; i++) {
        __llumc_replay_access((void *)(m + i));
        if (m[i] == (unsigned char)character) break;
    }
    return memchr(memory, character, length);
}

static void checked_compare(const unsigned char *left, const unsigned char *right, llumc_size limit, int strings) {
    for (llumc_size i = 0; i < limit; i++) {
        __llumc_replay_access((void *)(left + i));
        __llumc_replay_access((void *)(right + i));
        if (left[i] != right[i] || (strings && !left[i])) break;
    }
}

int __llumc_replay_strcmp(const char *left, const char *right) {
    checked_compare((const unsigned char *)left, (const unsigned char *)right, (llumc_size)-1, 1);
    return strcmp(left, right);
}

int __llumc_replay_strncmp(const char *left, const char *right, llumc_size limit) {
    checked_compare((const unsigned char *)left, (const unsigned char *)right, limit, 1);
    return strncmp(left, right, limit);
}

int __llumc_replay_memcmp(const void *left, const void *right, llumc_size length) {
    checked_compare(left, right, length, 0);
    return memcmp(left, right, length);
}

/* Values of uninitialised locals, for a program compiled through llumc's front-end rewrite
 * (llumc/check/replay.py): `ID VALUE` pairs, grouped by ID in the order the model read them. Each
 * rewritten site asks for its ID's next value; a site the model never read (its value was
 * dead there, or the run went elsewhere) gets 0: any value is a legal start of an
 * uninitialised local, so this cannot fake an error the program does not have. */
static unsigned long long uninit_pairs[2 * LLUMC_MAX_VALUES];
static long long uninit_numbers;
static long long uninit_taken[LLUMC_MAX_VALUES]; /* per group start: values handed out */

unsigned long long __llumc_replay_uninit(unsigned int id) {
    long long low = 0, high = uninit_numbers / 2; /* first pair with ID >= id */
    while (low < high) {
        long long middle = (low + high) / 2;
        if (uninit_pairs[2 * middle] < id) low = middle + 1;
        else high = middle;
    }
    if (low >= uninit_numbers / 2 || uninit_pairs[2 * low] != id) return 0;
    long long index = low + uninit_taken[low];
    if (index >= uninit_numbers / 2 || uninit_pairs[2 * index] != id) return 0;
    uninit_taken[low]++;
    return uninit_pairs[2 * index + 1];
}

static void on_signal(int signal_number, siginfo_t *info, void *context);

__attribute__((constructor)) static void llumc_replay_setup(void) {
    stack_top = __environ ? (char *)__environ : 0;
    const char *report = environment("LLUMC_REPLAY_REPORT");
    if (report) report_fd = sys_open(report, O_WRONLY | O_CREAT | O_APPEND, 0600);
    const char *count = environment("LLUMC_REPLAY_COUNT");
    if (count) {
        int fd = sys_open(count, O_RDWR | O_CREAT, 0600);
        if (fd >= 0 && raw_syscall(SYS_ftruncate, fd, sizeof(long long), 0, 0) == 0) {
            void *shared = sys_map_shared(fd, sizeof(long long));
            if (shared) consumed = shared;
        }
    }
    *consumed = 0;
    const char *path = environment("LLUMC_REPLAY_VALUES");
    if (path) read_numbers(path, values, &value_count, LLUMC_MAX_VALUES);
    const char *sites = environment("LLUMC_REPLAY_SITES");
    if (sites && value_count > 0) {
        int fd = sys_open(sites, O_RDWR | O_CREAT, 0600);
        unsigned long size = (unsigned long)value_count * sizeof(unsigned long long);
        if (fd >= 0 && raw_syscall(SYS_ftruncate, fd, (long)size, 0, 0) == 0) value_sites = sys_map_shared(fd, size);
    }
    leak_check = environment("LLUMC_REPLAY_LEAKS") != 0;
    const char *reuse = environment("LLUMC_REPLAY_REUSE");
    if (reuse) read_numbers(reuse, reuse_pairs, &reuse_numbers, 2 * LLUMC_MAX_BLOCKS);
    const char *uninit = environment("LLUMC_REPLAY_UNINIT");
    if (uninit) {
        read_numbers(uninit, uninit_pairs, &uninit_numbers, 2 * LLUMC_MAX_VALUES);
        if (uninit_numbers % 2) bad_values(uninit_numbers);
        for (long long i = 1; i < uninit_numbers / 2; i++)
            if (uninit_pairs[2 * i] < uninit_pairs[2 * i - 2]) bad_values(2 * i + 1); /* not grouped */
    }

    static char alternate_stack[1 << 16]; /* a stack overflow must still be reported */
    stack_t stack = {.ss_sp = alternate_stack, .ss_flags = 0, .ss_size = sizeof alternate_stack};
    raw_syscall(SYS_sigaltstack, (long)&stack, 0, 0, 0);
    static const int caught[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE};
    for (unsigned i = 0; i < sizeof caught / sizeof *caught; i++) sys_handle(caught[i], on_signal);
}

/* ------------------------------------------------------------------ signals */

static void on_signal(int signal_number, siginfo_t *info, void *context) {
    (void)info;
    ucontext_t *machine = context;
#if defined(__x86_64__)
    uintptr_t pc = (uintptr_t)machine->uc_mcontext.gregs[REG_RIP];
    void **frame = (void **)machine->uc_mcontext.gregs[REG_RBP];
    uintptr_t *top = (uintptr_t *)machine->uc_mcontext.gregs[REG_RSP];
#else
    uintptr_t pc = (uintptr_t)machine->uc_mcontext.gregs[REG_EIP];
    void **frame = (void **)machine->uc_mcontext.gregs[REG_EBP];
    uintptr_t *top = (uintptr_t *)machine->uc_mcontext.gregs[REG_ESP];
#endif
    /* A call through a NULL (or near-NULL) function pointer faults at the pointer itself: the
     * call's return address is on top of the stack, and the byte before it is in the call. */
    if (signal_number == SIGSEGV && pc < 4096 && top) pc = *top - 1;
    const unsigned char *code = (const unsigned char *)pc;
    int is_trap = 0, kind = -1;
    if (signal_number == SIGILL) {
        if (code[0] == 0x67) code++; /* address-size prefix of `ud1l K(%eax),%eax` on x86-64 */
        if (code[0] == 0x0f && code[1] == 0x0b) is_trap = 1; /* ud2: llvm.trap */
        if (code[0] == 0x0f && code[1] == 0xb9) { /* ud1: llvm.ubsantrap(K), K in the operand */
            is_trap = 1;
            if (code[2] == 0x00) kind = 0;       /* ud1l (%eax),%eax */
            if (code[2] == 0x40) kind = code[3]; /* ud1l K(%eax),%eax */
        }
    }
    if (is_trap) {
        put_text("trap");
        put_int(signal_number);
        put_int(kind);
    } else {
        put_text("signal");
        put_int(signal_number);
    }
    put_int(*consumed);
    put_hex(pc);
    put_frames(frame);
    emit();
    finish();
}

/* ------------------------------------------------------------------ error functions */

#define CALLER_FRAMES() put_frames((void **)__builtin_frame_address(0))

static _Noreturn void error_call(const char *name, void **frame) {
    put_text("error-call ");
    put_text(name);
    put_int(*consumed);
    put_frames(frame);
    emit();
    finish();
}

_Noreturn void __wrap___VERIFIER_error(void) { error_call("__VERIFIER_error", __builtin_frame_address(0)); }
_Noreturn void __wrap_reach_error(void) { error_call("reach_error", __builtin_frame_address(0)); }

_Noreturn void __wrap___assert_fail(const char *expression, const char *file, unsigned int line,
                                    const char *function) {
    (void)expression, (void)file, (void)function;
    put_text("assert");
    put_int(*consumed);
    put_int(line);
    CALLER_FRAMES();
    emit();
    finish();
}

/* glibc's spelling is __assert_fail; BSD/macOS headers use these. */
_Noreturn void __wrap___assert(const char *function, const char *file, int line, const char *expression) {
    __wrap___assert_fail(expression, file, (unsigned)line, function);
}
_Noreturn void __wrap___assert_rtn(const char *function, const char *file, int line, const char *expression) {
    __wrap___assert_fail(expression, file, (unsigned)line, function);
}

__attribute__((weak)) void __VERIFIER_assert(int condition) {
    if (!condition) error_call("__VERIFIER_assert", __builtin_frame_address(0));
}

_Noreturn void __wrap_abort(void) {
    put_text("abort");
    put_int(*consumed);
    CALLER_FRAMES();
    emit();
    finish();
}

void __wrap___VERIFIER_assume(int condition) {
    if (condition) return;
    put_text("assume-failed");
    put_int(*consumed);
    CALLER_FRAMES();
    emit();
    finish();
}

/* ------------------------------------------------------------------ nondet values */

static unsigned long long next_value(void *site) {
    if (value_sites && *consumed < value_count) value_sites[*consumed] = (unsigned long long)(uintptr_t)site;
    if (*consumed >= value_count && leak_check) {
        (*consumed)++;
        return 0;
    }
    if (*consumed >= value_count) {
        put_text("diverged");
        put_int(*consumed);
        emit();
        finish();
    }
    return values[(*consumed)++];
}

/* Each function returns the next recorded value converted to its C type (truncation keeps the
 * low bits: the recorded value may be given signed or unsigned). */
#define NONDET(type, name) \
    type __wrap___VERIFIER_nondet_##name(void) { return (type)next_value(__builtin_return_address(0)); }
NONDET(_Bool, bool)
NONDET(_Bool, _Bool)
NONDET(char, char)
NONDET(signed char, schar)
NONDET(unsigned char, uchar)
NONDET(short, short)
NONDET(unsigned short, ushort)
NONDET(int, int)
NONDET(unsigned int, uint)
NONDET(unsigned int, unsigned)
NONDET(long, long)
NONDET(unsigned long, ulong)
NONDET(long long, longlong)
NONDET(unsigned long long, ulonglong)
NONDET(unsigned long, size_t)
NONDET(long, ssize_t)
NONDET(long long, loff_t)
NONDET(unsigned long long, sector_t)
NONDET(unsigned long, pthread_t)
NONDET(unsigned char, u8)
NONDET(unsigned short, u16)
NONDET(unsigned int, u32)
NONDET(unsigned long long, u64)
NONDET(signed char, s8)
NONDET(short, s16)
NONDET(int, s32)
NONDET(long long, s64)
char *__wrap___VERIFIER_nondet_pchar(void) { return (char *)(uintptr_t)next_value(__builtin_return_address(0)); }
void *__wrap___VERIFIER_nondet_pointer(void) { return (void *)(uintptr_t)next_value(__builtin_return_address(0)); }

/* float/double: the recorded value is the IEEE bit pattern. */
float __wrap___VERIFIER_nondet_float(void) {
    union { unsigned int bits; float value; } pun = {(unsigned int)next_value(__builtin_return_address(0))};
    return pun.value;
}
double __wrap___VERIFIER_nondet_double(void) {
    union { unsigned long long bits; double value; } pun = {next_value(__builtin_return_address(0))};
    return pun.value;
}

/* ------------------------------------------------------------------ glibc's classification
 * Programs preprocessed against glibc's <math.h> call these by name; musl, which the replay
 * links, lacks them. glibc's meaning (the front end's, llumc.encoding.floatsem): isinf is -1
 * for -inf. Weak: a program's own definition is kept. */
__attribute__((weak)) int __isnan(double x) { return x != x; }
__attribute__((weak)) int __isnanf(float x) { return x != x; }
__attribute__((weak)) int __isinf(double x) { return x == 1.0 / 0.0 ? 1 : x == -1.0 / 0.0 ? -1 : 0; }
__attribute__((weak)) int __isinff(float x) { return x == 1.0f / 0.0f ? 1 : x == -1.0f / 0.0f ? -1 : 0; }
