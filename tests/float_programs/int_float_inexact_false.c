// 2^24 + 1 is the first int that float cannot hold: the round trip changes it.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 16777217);
    float f = (float)n;
    if ((int)f != n) reach_error();
    return 0;
}
