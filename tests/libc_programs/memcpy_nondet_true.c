// memcpy of nondeterministic length n <= 6 between arrays of nondet bytes: the copies agree
#include <string.h>
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  unsigned char source[6], target[6];
  for (int k = 0; k < 6; k++) source[k] = __VERIFIER_nondet_uchar();
  unsigned int n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 6);
  memcpy(target, source, n);
  for (unsigned int i = 0; i < n; i++)
    if (target[i] != source[i]) reach_error();
  return 0;
}
