// In the mode the program picks, 1.0f/3.0f*3.0f is 1 (to nearest, downward), 1 - 2^-24
// (toward zero) or 1 + 2^-23 (upward): above 1 only when rounding upward.
#include <fenv.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
    int mode = __VERIFIER_nondet_int();
    if (fesetround(mode) != 0) return 0;
    float third = 1.0f / 3.0f;
    float one = third * 3.0f;
    if (one > 1.0f) reach_error();
    return 0;
}
