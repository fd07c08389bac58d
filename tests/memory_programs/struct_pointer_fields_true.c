// TRUE: an entry is marked used exactly when it holds a value; the array of structs mixes
// an int field and a pointer field, both accessed at a computed index.
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
struct entry { int used; int *value; };
struct entry table[3];
int cell;
int main(void) {
  for (int i = 0; i < 3; i++) {
    int choice = __VERIFIER_nondet_int();
    table[i].used = choice > 0;
    table[i].value = choice > 0 ? &cell : 0;
  }
  for (int i = 0; i < 3; i++)
    if (table[i].used && table[i].value == 0) __VERIFIER_error();
  return 0;
}
