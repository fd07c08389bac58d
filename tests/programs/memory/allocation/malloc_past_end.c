// malloc(sizeof(int) * n), n in 1..1000, then p[n] = 1: one element past the end, for every n
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 1000) return 0;
  int *p = malloc(sizeof(int) * n);
  p[n] = 1;
  free(p);
  return 0;
}
