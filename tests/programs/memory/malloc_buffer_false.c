// a constant-size malloc'd buffer: one of the first four elements is overwritten with 5
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int *p = malloc(6 * sizeof(int));
  for (int i = 0; i < 6; i++) p[i] = 3 * i;
  p[__VERIFIER_nondet_int() & 3] = 5;
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 6 && p[k] != 3 * k) reach_error();
  free(p);
  return 0;
}
