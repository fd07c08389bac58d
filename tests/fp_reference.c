/* The machine's floating-point results, the reference of tests/test_floats.py.
   Each input line: OPERATION WIDTH N A B (N: integer width of a conversion, A and B operand
   bit patterns in hex); each output line: the result's bit pattern in hex. `mode 0 0 M 0`
   sets the rounding mode to M (fesetround, x86's FE_* value; prints its result) for the lines
   after it. Compiled with the clang llumc uses, -ffp-contract=off, -frounding-math, SSE
   arithmetic on x86-64, musl's libm. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

static u128 parse(const char *text) {
    u128 value = 0;
    for (; *text; text++)
        value = value << 4 | (u128)(*text <= '9' ? *text - '0' : (*text | 32) - 'a' + 10);
    return value;
}

static void print(u128 value) {
    uint64_t high = (uint64_t)(value >> 64), low = (uint64_t)value;
    if (high)
        printf("%llx%016llx\n", (unsigned long long)high, (unsigned long long)low);
    else
        printf("%llx\n", (unsigned long long)low);
}

static float get32(u128 v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static double get64(u128 v) { uint64_t u = (uint64_t)v; double d; memcpy(&d, &u, 8); return d; }
static u128 put32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static u128 put64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static u128 low_bits(u128 value, int n) { return n == 128 ? value : value & (((u128)1 << n) - 1); }
static i128 sign_extend(u128 value, int n) { return (i128)(value << (128 - n)) >> (128 - n); }

/* One definition for float (F = f) and double (F empty): T the type, BITS its width. */
#define DEFINE_OPERATIONS(NAME, T, BITS, F)                                                     \
static int NAME(const char *op, int n, u128 ra, u128 rb, u128 *out) {                         \
    T a = get##BITS(ra), b = get##BITS(rb);                                                   \
    if (!strcmp(op, "fadd")) *out = put##BITS(a + b);                                          \
    else if (!strcmp(op, "fsub")) *out = put##BITS(a - b);                                     \
    else if (!strcmp(op, "fmul")) *out = put##BITS(a * b);                                     \
    else if (!strcmp(op, "fdiv")) *out = put##BITS(a / b);                                     \
    else if (!strcmp(op, "frem")) *out = put##BITS(fmod##F(a, b));                             \
    else if (!strcmp(op, "sqrt")) *out = put##BITS(sqrt##F(a));                                \
    else if (!strcmp(op, "floor")) *out = put##BITS(floor##F(a));                              \
    else if (!strcmp(op, "ceil")) *out = put##BITS(ceil##F(a));                                \
    else if (!strcmp(op, "trunc")) *out = put##BITS(trunc##F(a));                              \
    else if (!strcmp(op, "round")) *out = put##BITS(round##F(a));                              \
    else if (!strcmp(op, "roundeven")) *out = put##BITS(rint##F(a));                           \
    else if (!strcmp(op, "rint")) *out = put##BITS(rint##F(a));                                \
    else if (!strcmp(op, "nearbyint")) *out = put##BITS(nearbyint##F(a));                      \
    else if (!strcmp(op, "minnum")) *out = put##BITS(fmin##F(a, b));                           \
    else if (!strcmp(op, "maxnum")) *out = put##BITS(fmax##F(a, b));                           \
    else if (!strcmp(op, "neg")) *out = put##BITS(-a);                                         \
    else if (!strcmp(op, "abs")) *out = put##BITS(fabs##F(a));                                 \
    else if (!strcmp(op, "copysign")) *out = put##BITS(copysign##F(a, b));                     \
    else if (!strcmp(op, "isnan")) *out = isnan(a) != 0;                                       \
    else if (!strcmp(op, "class")) *out = class_index(fpclassify(a), signbit(a) != 0,          \
                                                      (ra >> (BITS == 32 ? 22 : 51)) & 1);      \
    else if (!strcmp(op, "fcmp")) *out = compare_mask(a == b, a > b, a >= b, a < b, a <= b,    \
                                                      islessgreater(a, b), isunordered(a, b), a != b); \
    else if (!strcmp(op, "fptosi")) *out = low_bits(                                           \
        n == 8 ? (u128)(i128)(int8_t)a : n == 16 ? (u128)(i128)(int16_t)a :                    \
        n == 32 ? (u128)(i128)(int32_t)a : n == 64 ? (u128)(i128)(int64_t)a : (u128)(i128)a, n); \
    else if (!strcmp(op, "fptoui")) *out = low_bits(                                           \
        n == 8 ? (u128)(uint8_t)a : n == 16 ? (u128)(uint16_t)a :                              \
        n == 32 ? (u128)(uint32_t)a : n == 64 ? (u128)(uint64_t)a : (u128)a, n);               \
    else if (!strcmp(op, "sitofp")) {                                                          \
        i128 v = sign_extend(ra, n);                                                           \
        *out = put##BITS(n == 8 ? (T)(int8_t)v : n == 16 ? (T)(int16_t)v :                     \
                         n == 32 ? (T)(int32_t)v : n == 64 ? (T)(int64_t)v : (T)v);            \
    } else if (!strcmp(op, "uitofp")) {                                                        \
        u128 v = low_bits(ra, n);                                                              \
        *out = put##BITS(n == 8 ? (T)(uint8_t)v : n == 16 ? (T)(uint16_t)v :                   \
                         n == 32 ? (T)(uint32_t)v : n == 64 ? (T)(uint64_t)v : (T)v);          \
    } else return 0;                                                                           \
    return 1;                                                                                  \
}

/* The class numbers of llvm.is.fpclass: 0 sNaN, 1 qNaN, 2 -inf, ..., 9 +inf. */
static u128 class_index(int kind, int negative, int quiet) {
    if (kind == FP_NAN) return quiet ? 1 : 0;
    int positive_order = kind == FP_ZERO ? 6 : kind == FP_SUBNORMAL ? 7 : kind == FP_NORMAL ? 8 : 9;
    return negative ? 11 - positive_order : positive_order;
}

/* The 16 fcmp predicates in LLVM's order (false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true). */
static u128 compare_mask(int eq, int gt, int ge, int lt, int le, int lg, int uno, int ne) {
    int bits[16] = {0, eq, gt, ge, lt, le, lg, !uno, !lg, !le, !lt, !ge, !gt, ne, uno, 1};
    u128 m = 0;
    for (int i = 0; i < 16; i++) m |= (u128)(bits[i] != 0) << i;
    return m;
}

DEFINE_OPERATIONS(single_operation, float, 32, f)
DEFINE_OPERATIONS(double_operation, double, 64, )

int main(void) {
    char op[32], a[40], b[40];
    int width, n;
    while (scanf("%31s %d %d %39s %39s", op, &width, &n, a, b) == 5) {
        u128 ra = parse(a), rb = parse(b), out = 0;
        int known;
        if (!strcmp(op, "mode")) { out = (u128)(unsigned)fesetround((int)ra); known = 1; }
        else if (!strcmp(op, "fpext")) { out = put64((double)get32(ra)); known = 1; }
        else if (!strcmp(op, "fptrunc")) { out = put32((float)get64(ra)); known = 1; }
        else known = width == 32 ? single_operation(op, n, ra, rb, &out) : double_operation(op, n, ra, rb, &out);
        if (!known) { fprintf(stderr, "unknown operation %s\n", op); return 2; }
        print(out);
    }
    return 0;
}
