// malloc(sizeof(int) * n) for any n up to INT_MAX / 4 (almost 2 GiB under ILP32): allocation succeeds, the first and last elements keep what was written: TRUE
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 2147483647 / 4) return 0;
  int *p = malloc(sizeof(int) * n);
  p[n - 1] = 2;
  p[0] = 1;
  if (n > 1 && p[n - 1] != 2) reach_error();
  free(p);
  return 0;
}
