// the error needs strlen to return 7: a string of 9 nondet chars whose 8th is the first 0
#include <string.h>
extern char __VERIFIER_nondet_char(void);
extern void reach_error(void);
int main() {
  char s[10];
  for (int k = 0; k < 9; k++) s[k] = __VERIFIER_nondet_char();
  s[9] = 0;
  if (strlen(s) == 7) reach_error();
  return 0;
}
