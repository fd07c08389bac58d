// valid-memsafety: strcpy of a string of up to 11 chars into 8 bytes of heap
#include <stdlib.h>
#include <string.h>
extern char __VERIFIER_nondet_char(void);
int main() {
  char source[12];
  for (int k = 0; k < 11; k++) source[k] = __VERIFIER_nondet_char();
  source[11] = 0;
  char *copy = malloc(8);
  strcpy(copy, source);
  free(copy);
  return 0;
}
