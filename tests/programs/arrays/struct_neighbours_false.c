// every entry is used; entry 500's value is 0, and the check pairs entry i's flag with entry
// i + 1's value: FALSE at i = 499. The two reads lie in different elements, so no one tracked
// element holds both: the error edge keeps its havoc values (never TRUE)
extern void reach_error(void);
struct entry { int used; int value; };
struct entry table[1000];
int main(void) {
  for (int i = 0; i < 1000; i++) { table[i].used = 1; table[i].value = i == 500 ? 0 : 7; }
  for (int i = 0; i + 1 < 1000; i++)
    if (table[i].used && table[i + 1].value == 0) reach_error();
  return 0;
}
