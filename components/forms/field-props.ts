import type { FormNode } from "@/lib/forms/form-model";

/** What each input of a form gets from its field: the node, the value at its place and how to replace it. */
export interface ControlProps<N extends FormNode = FormNode> {
  node: N;
  value: unknown;
  /** The JSON pointer of the value (also the input's `data-field`, without the leading slash). */
  pointer: string;
  id: string;
  /** The field's label (for names such as "Clear tags"). */
  label: string;
  required: boolean;
  /** Ids of the description, hints and errors, for `aria-describedby`. */
  describedBy: string | undefined;
  invalid: boolean;
  /** Replace the value; `undefined` removes it (an empty optional field is left out). */
  onChange: (next: unknown) => void;
  /** An array item cannot be absent: an emptied text item is "" and an emptied number is a problem. */
  inArray: boolean;
}
