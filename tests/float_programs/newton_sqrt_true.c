// Newton's iteration for sqrt(x), x one of 1, 1.25, 1.5, iterated until r*r is within
// 1e-5 relative of x: it stops within 6 steps with r*r close to x (run natively: at most 4
// steps, the worst relative error 1.2e-7).
#include <math.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
    int k = __VERIFIER_nondet_int();
    __VERIFIER_assume(k >= 0 && k <= 2);
    float x = 1.0f + 0.25f * (float)k;
    float r = x / 2.0f + 0.5f;
    int steps = 0;
    while (fabsf(r * r - x) > 1e-5f * x && steps < 6) {
        r = 0.5f * (r + x / r);
        steps++;
    }
    if (steps >= 6 || !(fabsf(r * r - x) <= 1e-5f * x)) reach_error();
    return 0;
}
