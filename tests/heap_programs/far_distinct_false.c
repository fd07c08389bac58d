// the blocks of runs 8, 9, 10 and 11 of one site are four blocks: a != b and c != d both hold,
// so the error is reached (with a summary of few numbered nodes, all four on the far nodes)
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0, *a = 0, *b = 0, *c = 0, *d = 0;
  for (int i = 0; i < 12; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = i;
    n->next = head;
    head = n;
    if (i == 7) a = n;
    if (i == 8) b = n;
    if (i == 9) c = n;
    if (i == 10) d = n;
  }
  if (a != b && c != d) reach_error();
  return 0;
}
