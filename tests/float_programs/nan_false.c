// 0 * x is 0 for every finite x, but NaN for an infinite one (and for a NaN).
extern float __VERIFIER_nondet_float(void);
extern void reach_error(void);

int main(void) {
    float x = __VERIFIER_nondet_float();
    float z = 0.0f * x;
    if (z != z) reach_error();
    return 0;
}
