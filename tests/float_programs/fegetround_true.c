// fesetround accepts exactly the four modes (returning 0, after which fegetround gives the
// mode back) and refuses anything else with a nonzero result, leaving the mode unchanged.
#include <fenv.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
    int previous = fegetround();
    if (previous != FE_TONEAREST) reach_error();
    for (int i = 0; i < 3; i++) {
        int mode = __VERIFIER_nondet_int();
        int valid = mode == FE_TONEAREST || mode == FE_DOWNWARD || mode == FE_UPWARD || mode == FE_TOWARDZERO;
        int result = fesetround(mode);
        if (valid != (result == 0)) reach_error();
        if (fegetround() != (valid ? mode : previous)) reach_error();
        previous = fegetround();
    }
    return 0;
}
