// a list of 12 nodes; the one made at i == 9 is freed, then freed again: a double free
// (valid-free; with a summary of few numbered nodes, a far node's)
#include <stdlib.h>
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0, *kept = 0;
  for (int i = 0; i < 12; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = i;
    n->next = head;
    head = n;
    if (i == 9) kept = n;
  }
  free(kept);
  free(kept);
  return 0;
}
