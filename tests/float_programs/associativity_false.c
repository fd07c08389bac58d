// Floating-point addition is not associative: some a, b, c give different sums.
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
    double a = __VERIFIER_nondet_double(), b = __VERIFIER_nondet_double(), c = __VERIFIER_nondet_double();
    __VERIFIER_assume(a == a && b == b && c == c);  // no NaN
    if ((a + b) + c != a + (b + c)) reach_error();
    return 0;
}
