// Rounding toward zero, a float sum of positive numbers never exceeds the exact sum, which
// double holds exactly here (three numbers in [1, 2]: 26 significant bits at most).
#include <fenv.h>
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
    fesetround(FE_TOWARDZERO);
    float a = __VERIFIER_nondet_float(), b = __VERIFIER_nondet_float(), c = __VERIFIER_nondet_float();
    __VERIFIER_assume(a >= 1.0f && a <= 2.0f && b >= 1.0f && b <= 2.0f && c >= 1.0f && c <= 2.0f);
    float sum = a + b + c;
    double exact = (double)a + (double)b + (double)c;
    if ((double)sum > exact) reach_error();
    if (1.0f / 3.0f * 3.0f >= 1.0f) reach_error();  // 1 - 2^-24 toward zero
    return 0;
}
