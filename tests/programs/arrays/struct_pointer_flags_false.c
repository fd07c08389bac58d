// struct_pointer_flags_true.c (at 100 entries) with entry 20 used and its pointer NULL: the dereference in the
// second loop reads through NULL (valid-memsafety: FALSE, valid-deref).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct entry { int used; int *value; };
struct entry table[100];
int cell = 5;
int main(void) {
  for (int i = 0; i < 100; i++) {
    if (i == 20 || __VERIFIER_nondet_int()) { table[i].used = 1; table[i].value = i == 20 ? 0 : &cell; }
    else { table[i].used = 0; table[i].value = 0; }
  }
  int sum = 0;
  for (int i = 0; i < 100; i++)
    if (table[i].used)
      sum += *table[i].value == 5;
  return sum > 100;
}
