/* The bug needs the value of an uninitialised local: it must stay nondeterministic. */
extern void __VERIFIER_error(void);
int main(void) {
  int u;
  if (u == 42) {
    __VERIFIER_error();
  }
  return 0;
}
