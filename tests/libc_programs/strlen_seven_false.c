extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "strlen_seven_false.c", 3, "reach_error"); }
extern char __VERIFIER_nondet_char(void);
unsigned long strlen(const char *);

int main(void) {
  char s[10];
  for (int k = 0; k < 9; k++) s[k] = __VERIFIER_nondet_char();
  s[9] = 0;
  if (strlen(s) == 7) reach_error();
  return 0;
}
