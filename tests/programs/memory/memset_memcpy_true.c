// memset then memcpy of constant length
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  int a[5], b[5];
  memset(a, 0, sizeof a);
  a[2] = __VERIFIER_nondet_int();
  memcpy(b, a, sizeof a);
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 5) return 0;
  if (b[k] != a[k] || (k != 2 && b[k] != 0)) reach_error();
  char c[4];
  memset(c, 7, 4);
  if (c[k % 4] != 7) reach_error();
  return 0;
}
