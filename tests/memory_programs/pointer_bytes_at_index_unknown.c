// UNKNOWN: the pointers of an array are read back as integers at a computed index, which the
// memory model's own pointer representation cannot answer (a named UNKNOWN, never a verdict).
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
int *pointers[3];
int x;
int main(void) {
  for (int i = 0; i < 3; i++) pointers[i] = &x;
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 3 && ((int *)pointers)[k] == 0) __VERIFIER_error();
  return 0;
}
