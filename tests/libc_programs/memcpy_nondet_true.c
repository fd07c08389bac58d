extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "memcpy_nondet_true.c", 3, "reach_error"); }
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
void *memcpy(void *, const void *, unsigned long);

int main(void) {
  unsigned char src[8], dst[8];
  for (int k = 0; k < 8; k++) src[k] = __VERIFIER_nondet_uchar();
  unsigned int n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 8);
  memcpy(dst, src, n);
  for (unsigned int i = 0; i < n; i++)
    if (dst[i] != src[i]) reach_error();
  return 0;
}
