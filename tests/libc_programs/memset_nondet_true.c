extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "memset_nondet_true.c", 3, "reach_error"); }
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
void *memset(void *, int, unsigned long);

int main(void) {
  unsigned char a[10];
  unsigned int n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 10);
  memset(a, 0, n);
  for (unsigned int i = 0; i < n; i++)
    if (a[i] != 0) reach_error();
  return 0;
}
