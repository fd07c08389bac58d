// strlen of a string of nondet chars with a terminator at a nondet index: below the buffer's size
#include <string.h>
extern char __VERIFIER_nondet_char(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  char s[8];
  for (int k = 0; k < 8; k++) s[k] = __VERIFIER_nondet_char();
  unsigned int end = __VERIFIER_nondet_uint();
  __VERIFIER_assume(end < 8);
  s[end] = 0;
  size_t length = strlen(s);
  if (length >= 8 || length > end) reach_error();
  return 0;
}
