// memset then a memcpy of only the first 3 elements: b[4] stays as memset left it
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  int a[5], b[5];
  memset(a, 0, sizeof a);
  memset(b, 1, sizeof b);
  memcpy(b, a, 3 * sizeof(int));
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 5) return 0;
  if (b[k] != 0) reach_error();
  return 0;
}
