// a list of 12 nodes built by prepending, each holding 2 but the one made at i == 9 (3): the walk
// reaches it (with a summary of few numbered nodes, a far node's)
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0;
  for (int i = 0; i < 12; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = i == 9 ? 3 : 2;
    n->next = head;
    head = n;
  }
  for (struct node *p = head; p; p = p->next)
    if (p->data != 2) reach_error();
  return 0;
}
