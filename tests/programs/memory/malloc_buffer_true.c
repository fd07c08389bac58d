// a constant-size malloc'd buffer: filled, read back at a nondet index, freed
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int *p = malloc(6 * sizeof(int));
  for (int i = 0; i < 6; i++) p[i] = 3 * i;
  int *z = calloc(4, sizeof(int));
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 6 && p[k] != 3 * k) reach_error();
  if (k >= 0 && k < 4 && z[k] != 0) reach_error();
  free(p);
  free(z);
  return 0;
}
