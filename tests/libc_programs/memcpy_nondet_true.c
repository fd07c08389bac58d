// memcpy of nondeterministic length n <= 4 between arrays of nondet bytes: the copies agree
// below n (at a nondet index)
#include <string.h>
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  unsigned char source[4], target[4];
  for (int k = 0; k < 4; k++) source[k] = __VERIFIER_nondet_uchar();
  unsigned int n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 4);
  memcpy(target, source, n);
  unsigned int i = __VERIFIER_nondet_uint();
  if (i < n && target[i] != source[i]) reach_error();
  return 0;
}
