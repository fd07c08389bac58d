// fmod is exact, and 0.1 is not a tenth: fmod(0.3, 0.1) is 0.09999999999999998, not 0.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
extern double fmod(double, double);

int main(void) {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 100);
    double x = n / 10.0;
    double r = fmod(x, 0.1);
    if (r > 0.05) reach_error();
    return 0;
}
