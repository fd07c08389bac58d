// memset of nondeterministic length n <= 10: the first n bytes are 0
#include <string.h>
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  unsigned char a[10];
  unsigned int n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 10);
  memset(a, 0, n);
  for (unsigned int i = 0; i < n; i++)
    if (a[i] != 0) reach_error();
  return 0;
}
