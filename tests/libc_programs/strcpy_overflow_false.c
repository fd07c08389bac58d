#include <stdlib.h>
extern char __VERIFIER_nondet_char(void);
char *strcpy(char *, const char *);

int main(void) {
  char source[12];
  for (int k = 0; k < 11; k++) source[k] = __VERIFIER_nondet_char();
  source[11] = 0;
  char *copy = malloc(8);
  strcpy(copy, source);
  free(copy);
  return 0;
}
