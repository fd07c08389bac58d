/* Native ground truth for tests/test_loop_programs.py and tests/test_differential.py.
 *
 * Compiled together with a program whose `main` is renamed (-Dmain=llumc_program_main), e.g.
 *   python -m ziglang cc -target x86-linux-musl -O0 -fwrapv -fno-sanitize=all -w \
 *       -Dmain=llumc_program_main -o prog.bin prog.c tests/nondet_driver.c
 * It reads input vectors from stdin, one per line (decimal integers separated by blanks; an
 * empty line is the empty vector), runs the program once per vector with __VERIFIER_nondet_*
 * returning the vector's values in order (float and double: the value is the IEEE bit pattern,
 * as in llumc's counterexamples), and prints one line per vector:
 *   ok N        the program returned (N values read)
 *   error N     __VERIFIER_error, reach_error or __assert_fail was called
 *   assume N    a __VERIFIER_assume failed: not an execution of the program
 *   diverged N  the program asked for more values than the vector has
 * before it, a line `probe ID VALUE` for each call of llumc_probe(ID, VALUE) the run made
 * (tests/test_differential.py replaces its assertions by probes to choose their constants; the
 * VALUE of llumc_probe_double(ID, VALUE) is the double's bit pattern, as a signed integer) and
 * `probe ID 0` for each call of llumc_invariant(ID, 0) (a loop invariant llumc claimed, false).
 * A run ends by longjmp back into the driver, so one process runs many vectors. The programs
 * must not rely on globals or static locals between runs (the tests' programs have none).
 * Independent of llumc: it shares no code with llumc/replay_harness.c.
 */
#undef main
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_VALUES 4096
enum { RUN_OK = 1, RUN_ERROR, RUN_ASSUME, RUN_DIVERGED };

static long long values[MAX_VALUES];
static int count, used;
static jmp_buf back;
static volatile int outcome;

static _Noreturn void stop(int how) {
    outcome = how;
    longjmp(back, 1);
}

int llumc_program_main(void);

static long long next_value(void) {
    if (used >= count) stop(RUN_DIVERGED);
    return values[used++];
}

_Bool __VERIFIER_nondet_bool(void) { return next_value() != 0; }
char __VERIFIER_nondet_char(void) { return (char)next_value(); }
signed char __VERIFIER_nondet_schar(void) { return (signed char)next_value(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)next_value(); }
short __VERIFIER_nondet_short(void) { return (short)next_value(); }
unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)next_value(); }
int __VERIFIER_nondet_int(void) { return (int)next_value(); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)next_value(); }
unsigned int __VERIFIER_nondet_unsigned(void) { return (unsigned int)next_value(); }
float __VERIFIER_nondet_float(void) {
    union { unsigned int bits; float value; } pun = {(unsigned int)next_value()};
    return pun.value;
}
double __VERIFIER_nondet_double(void) {
    union { unsigned long long bits; double value; } pun = {(unsigned long long)next_value()};
    return pun.value;
}

void __VERIFIER_assume(int condition) {
    if (!condition) stop(RUN_ASSUME);
}
void __VERIFIER_error(void) { stop(RUN_ERROR); }
/* weak: an SV-COMP program defines reach_error itself, calling __assert_fail */
__attribute__((weak)) void reach_error(void) { stop(RUN_ERROR); }
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function) {
    (void)assertion, (void)file, (void)line, (void)function;
    stop(RUN_ERROR);
}

void llumc_probe(int id, long long value) { printf("probe %d %lld\n", id, value); }
void llumc_probe_double(int id, double value) {
    union { double value; long long bits; } pun = {value};
    printf("probe %d %lld\n", id, pun.bits);
}
/* A claimed loop invariant, evaluated where the loop tests its condition: reported (as a probe
 * of value 0) only when it does not hold, so runs with long loops print nothing. */
void llumc_invariant(int id, int holds) {
    if (!holds) printf("probe %d 0\n", id);
}

static char line[1 << 16];

int main(void) {
    static const char *names[] = {"", "ok", "error", "assume", "diverged"};
    while (fgets(line, sizeof line, stdin)) {
        char *p = line, *end;
        count = 0;
        for (;;) {
            /* negative numbers and bit patterns beyond LLONG_MAX (a negative double's) alike */
            long long v = (long long)strtoull(p, &end, 10);
            if (end == p) break;
            if (count == MAX_VALUES) {
                fprintf(stderr, "nondet_driver: more than %d values in a vector\n", MAX_VALUES);
                return 2;
            }
            values[count++] = v;
            p = end;
        }
        used = 0;
        outcome = RUN_OK;
        if (setjmp(back) == 0) llumc_program_main();
        printf("%s %d\n", names[outcome], used);
    }
    return 0;
}
