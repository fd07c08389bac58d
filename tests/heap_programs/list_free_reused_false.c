// nodes freed and allocated again, their addresses compared: the allocator may hand the freed
// block out again (musl does: FALSE natively); a summary, node n for run n, never would: refused
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; struct node *next; };
int main() {
  struct node *last = 0;
  for (int i = 0; i < 1000; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    if (n == last) reach_error();
    last = n;
    free(n);
  }
  return 0;
}
