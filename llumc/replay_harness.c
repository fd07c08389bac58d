/* llumc replay harness: linked with the program under test to replay a counterexample.
 *
 * Every SV-COMP primitive is reached through the linker's --wrap (set up by llumc/replay.py), so
 * the harness wins even where the program defines the function itself (reach_error,
 * __VERIFIER_nondet_int, ...): SV-COMP's property is the *call* of the error function, whatever
 * its body. Only __VERIFIER_assert is a weak default: a program's own definition is kept.
 *
 * Environment:
 *   LLUMC_REPLAY_VALUES  file with the recorded nondet values, one decimal integer per line
 *   LLUMC_REPLAY_REPORT  file the harness writes events to (one line each, see emit())
 *   LLUMC_REPLAY_COUNT   file of 8 bytes, mapped shared: the number of values consumed so far,
 *                        readable even after the process was killed on timeout
 *
 * Report lines (space separated, addresses in hex; frames are return addresses, innermost
 * first, walked along the frame-pointer chain of the -O0 program):
 *   error-call NAME CONSUMED FRAMES...
 *   assert CONSUMED LINE FRAMES...             (__assert_fail: the line comes from assert())
 *   trap SIGNAL KIND CONSUMED PC FRAMES...     (KIND: ud1's clang check number, -1 otherwise)
 *   signal SIGNAL CONSUMED PC FRAMES...
 *   abort CONSUMED FRAMES...
 *   diverged CONSUMED                          (asked for more values than recorded)
 *   assume-failed CONSUMED FRAMES...
 *   bad-values LINE                            (the values file is malformed)
 * Only async-signal-safe calls (open, write, _exit) are used on the reporting paths.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define LLUMC_EXIT_EVENT 86 /* exit code after a reported event (the report file says which) */
#define LLUMC_MAX_VALUES 1000000
#define LLUMC_MAX_FRAMES 16

extern char **environ;

static unsigned long long *values;
static long long value_count;
static volatile long long consumed_fallback;
static volatile long long *consumed = &consumed_fallback;
static int report_fd = -1;
static char *stack_top;

/* ------------------------------------------------------------------ async-signal-safe output */

static char line_buffer[1024];
static size_t line_length;

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
    if (report_fd >= 0) {
        ssize_t ignored = write(report_fd, line_buffer, line_length);
        (void)ignored;
    }
    line_length = 0;
}

static _Noreturn void finish(void) {
    _exit(LLUMC_EXIT_EVENT);
}

/* ------------------------------------------------------------------ set-up */

static void read_values(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return;
    size_t capacity = 1 << 16, length = 0;
    char *text = malloc(capacity + 1);
    for (;;) {
        if (length == capacity) text = realloc(text, (capacity *= 2) + 1);
        ssize_t got = read(fd, text + length, capacity - length);
        if (got <= 0) break;
        length += (size_t)got;
    }
    close(fd);
    text[length] = 0;
    values = malloc(sizeof *values * 1024);
    long long allocated = 1024, line = 0;
    char *cursor = text;
    while (*cursor) {
        while (*cursor == '\n' || *cursor == ' ' || *cursor == '\r') cursor++;
        if (!*cursor) break;
        line++;
        char *end;
        unsigned long long value = *cursor == '-' ? (unsigned long long)strtoll(cursor, &end, 10)
                                                  : strtoull(cursor, &end, 10);
        if (end == cursor || value_count >= LLUMC_MAX_VALUES) {
            put_text("bad-values");
            put_int(line);
            emit();
            finish();
        }
        if (value_count == allocated) values = realloc(values, sizeof *values * (size_t)(allocated *= 2));
        values[value_count++] = value;
        cursor = end;
    }
    free(text);
}

static void on_signal(int signal_number, siginfo_t *info, void *context);

__attribute__((constructor)) static void llumc_replay_setup(void) {
    stack_top = environ ? (char *)environ : 0;
    const char *report = getenv("LLUMC_REPLAY_REPORT");
    if (report) report_fd = open(report, O_WRONLY | O_CREAT | O_APPEND, 0600);
    const char *count = getenv("LLUMC_REPLAY_COUNT");
    if (count) {
        int fd = open(count, O_RDWR | O_CREAT, 0600);
        if (fd >= 0 && ftruncate(fd, sizeof(long long)) == 0) {
            void *shared = mmap(0, sizeof(long long), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (shared != MAP_FAILED) consumed = shared;
        }
    }
    *consumed = 0;
    const char *path = getenv("LLUMC_REPLAY_VALUES");
    if (path) read_values(path);

    static char alternate_stack[1 << 16]; /* a stack overflow must still be reported */
    stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack};
    sigaltstack(&stack, 0);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    int caught[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE};
    for (unsigned i = 0; i < sizeof caught / sizeof *caught; i++) sigaction(caught[i], &action, 0);
}

/* ------------------------------------------------------------------ signals */

static void on_signal(int signal_number, siginfo_t *info, void *context) {
    (void)info;
    ucontext_t *machine = context;
#if defined(__x86_64__)
    uintptr_t pc = (uintptr_t)machine->uc_mcontext.gregs[REG_RIP];
    void **frame = (void **)machine->uc_mcontext.gregs[REG_RBP];
#elif defined(__i386__)
    uintptr_t pc = (uintptr_t)machine->uc_mcontext.gregs[REG_EIP];
    void **frame = (void **)machine->uc_mcontext.gregs[REG_EBP];
#else
#error "llumc replay: x86 targets only"
#endif
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

static unsigned long long next_value(void) {
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
    type __wrap___VERIFIER_nondet_##name(void) { return (type)next_value(); }
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
NONDET(unsigned char, u8)
NONDET(unsigned short, u16)
NONDET(unsigned int, u32)
NONDET(unsigned long long, u64)
NONDET(signed char, s8)
NONDET(short, s16)
NONDET(int, s32)
NONDET(long long, s64)
char *__wrap___VERIFIER_nondet_pchar(void) { return (char *)(uintptr_t)next_value(); }
void *__wrap___VERIFIER_nondet_pointer(void) { return (void *)(uintptr_t)next_value(); }

/* float/double: the recorded value is the IEEE bit pattern. */
float __wrap___VERIFIER_nondet_float(void) {
    unsigned int bits = (unsigned int)next_value();
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}
double __wrap___VERIFIER_nondet_double(void) {
    unsigned long long bits = next_value();
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}
