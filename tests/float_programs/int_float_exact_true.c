// Every int of magnitude at most 2^24 survives the round trip through float.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= -16777216 && n <= 16777216);
    float f = (float)n;
    if ((int)f != n) reach_error();
    return 0;
}
