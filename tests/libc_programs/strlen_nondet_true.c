extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "strlen_nondet_true.c", 3, "reach_error"); }
extern char __VERIFIER_nondet_char(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
unsigned long strlen(const char *);

int main(void) {
  char s[8];
  for (int k = 0; k < 8; k++) s[k] = __VERIFIER_nondet_char();
  unsigned int end = __VERIFIER_nondet_uint();
  __VERIFIER_assume(end < 8);
  s[end] = 0;
  unsigned long length = strlen(s);
  if (length >= 8) reach_error();
  if (length > end) reach_error();
  return 0;
}
