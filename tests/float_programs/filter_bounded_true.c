// A first-order low-pass filter y += 0.25 * (x - y) driven by inputs in [-10, 10] stays in
// [-10, 10]: every step is a convex combination, and rounding to nearest cannot leave the range.
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
    float y = 0.0f;
    for (;;) {
        float x = __VERIFIER_nondet_float();
        __VERIFIER_assume(x >= -10.0f && x <= 10.0f);
        y = y + 0.25f * (x - y);
        if (!(y >= -10.0f && y <= 10.0f)) reach_error();
    }
}
