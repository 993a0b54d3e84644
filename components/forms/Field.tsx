"use client";

import { useState, type ReactNode } from "react";
import { isObject } from "@/lib/json/guards";
import { appendPointer } from "@/lib/json/pointer";
import { visibleText } from "@/lib/mcp/visible-text";
import type { Branch, FormNode } from "@/lib/forms/form-model";
import { emptyValue, fitsNode, jsonEqual, moveItem, newItem, pickBranch, withKey } from "@/lib/forms/form-value";
import { fieldHints, fieldMessage, misfitNote, valueSummary } from "@/lib/forms/field-text";
import { fieldId, useFormContext } from "./form-context";
import type { ControlProps } from "./field-props";
import { BooleanField, ConstField, EnumField, MultiSelectField } from "./ChoiceInputs";
import { JsonField } from "./JsonField";
import { TextField } from "./TextField";
import { errorClass, fieldsetClass, hintClass, iconButton, inputClass, smallButton } from "./form-styles";

export interface FieldProps {
  node: FormNode;
  value: unknown;
  pointer: string;
  label: string;
  required: boolean;
  /** Replace the value; `undefined` removes it. */
  onChange: (next: unknown) => void;
  /** Extra buttons on the label row (an array item's move and remove). */
  actions?: ReactNode;
  /** Said after the label to screen readers only (" of tags" after "Item 2"). */
  srSuffix?: string;
  /** The property name, shown beside a title that differs from it. */
  keyName?: string;
  inArray?: boolean;
  /** Added to the element ids: a choice's branch shares the choice's pointer. */
  idSuffix?: string;
  /** Leave the errors to the enclosing field (a choice shows those of its branch). */
  quiet?: boolean;
  /** For a part edited as JSON: what to say instead of the node's reason (a key the schema does not name). */
  note?: string;
}

/** Kinds shown as a group of inputs (role="group" labelled by the header) rather than one labelled input. */
const GROUPS = new Set<FormNode["kind"]>(["object", "array", "multiselect"]);

/**
 * One field: its label row (required mark, "Use default", null, the caller's actions), the input for its kind,
 * the description, hints (constraints, default) and the errors placed on it. A value the node cannot show is edited
 * as JSON with a note saying why.
 */
export function Field(props: FieldProps) {
  const { node, value, pointer, label, required, onChange, inArray = false } = props;
  const ctx = useFormContext();
  const id = fieldId(ctx.idPrefix, pointer) + (props.idSuffix ?? "");
  const messages = !props.quiet && ctx.errorsShownFor(pointer) ? (ctx.errors.byField[pointer] ?? []) : [];
  const invalid = messages.length > 0;
  const hints = fieldHints(node);
  const descId = node.description ? `${id}-desc` : "";
  const hintId = hints ? `${id}-hint` : "";
  const errId = invalid ? `${id}-err` : "";
  const describedBy = [descId, hintId, errId].filter(Boolean).join(" ") || undefined;
  // A choice shows its own chooser beside a value that fits none of its branches.
  const misfit = value !== undefined && node.kind !== "choice" && !fitsNode(node, value);
  const isNull = value === null && node.nullable && node.kind !== "null";

  const set = (next: unknown) => {
    ctx.touch(pointer);
    onChange(next);
  };
  const control: ControlProps = { node, value, pointer, id, label, required, describedBy, invalid, onChange, inArray };

  let body: ReactNode;
  let labelFor: string | undefined = id;
  if (misfit) body = <JsonField {...control} note={misfitNote(node, value)} />;
  else if (isNull)
    body = (
      <output id={id} aria-describedby={describedBy} className="font-mono text-xs text-zinc-600 dark:text-zinc-300">
        null
      </output>
    );
  else {
    switch (node.kind) {
      case "string":
      case "number":
        body = <TextField {...control} node={node} />;
        break;
      case "boolean":
        body = <BooleanField {...control} node={node} />;
        if (node.explicit) labelFor = undefined;
        break;
      case "enum":
        body = <EnumField {...control} node={node} />;
        break;
      case "multiselect":
        body = <MultiSelectField {...control} node={node} />;
        labelFor = undefined;
        break;
      case "const":
        body = <ConstField {...control} node={node} />;
        break;
      case "null":
        body = <ConstField {...control} node={{ ...node, kind: "const", value: null }} />;
        break;
      case "json":
        body = <JsonField {...control} note={props.note ?? (node.reason ? `Edited as JSON: ${node.reason}.` : "")} />;
        break;
      case "object":
        body =
          value === undefined && !required ? null : (
            <ObjectBody node={node} value={value} pointer={pointer} onChange={onChange} label={label} />
          );
        labelFor = undefined;
        break;
      case "array":
        body = <ArrayBody node={node} value={value} pointer={pointer} onChange={onChange} label={label} required={required} />;
        labelFor = undefined;
        break;
      case "choice":
        body = (
          <ChoiceBody
            node={node}
            value={value}
            pointer={pointer}
            onChange={onChange}
            label={label}
            id={id}
            describedBy={describedBy}
            required={required || inArray}
          />
        );
        labelFor = `${id}-choice`;
        break;
    }
  }

  const actions: ReactNode[] = [];
  if (node.kind === "object" && !required && !misfit && !isNull && !inArray)
    actions.push(
      value === undefined ? (
        <button key="add" type="button" className={smallButton} disabled={ctx.disabled} onClick={() => set(emptyValue(node))}>
          Add {label}
        </button>
      ) : (
        <button key="remove" type="button" className={smallButton} disabled={ctx.disabled} onClick={() => set(undefined)}>
          Remove {label}
        </button>
      ),
    );
  if (node.hasDefault && !jsonEqual(value, node.default))
    actions.push(
      <button
        key="default"
        type="button"
        className={smallButton}
        disabled={ctx.disabled}
        aria-label={`Use the default of ${label}`}
        onClick={() => set(structuredClone(node.default))}
      >
        Use default
      </button>,
    );
  if (node.nullable && node.kind !== "null")
    actions.push(
      isNull ? (
        <button
          key="null"
          type="button"
          className={smallButton}
          disabled={ctx.disabled}
          aria-label={`Give ${label} a value instead of null`}
          onClick={() => set(emptyValue(node))}
        >
          Set a value
        </button>
      ) : (
        <button
          key="null"
          type="button"
          className={smallButton}
          disabled={ctx.disabled}
          aria-label={`Set ${label} to null`}
          onClick={() => set(null)}
        >
          Set to null
        </button>
      ),
    );

  const labelText = (
    <>
      <span className="font-medium">{label}</span>
      {props.srSuffix && <span className="sr-only">{props.srSuffix}</span>}
      {props.keyName && props.keyName !== label && (
        <span className="ml-1 font-mono text-xs text-zinc-500 dark:text-zinc-400">{props.keyName}</span>
      )}
      {required && (
        <>
          <span className="ml-0.5 text-red-600 dark:text-red-400" aria-hidden>
            *
          </span>
          <span className="sr-only"> (required)</span>
        </>
      )}
    </>
  );
  const labelEl =
    labelFor !== undefined ? (
      <label htmlFor={labelFor} id={`${id}-label`} className="min-w-0 text-sm break-words">
        {labelText}
      </label>
    ) : (
      <span id={`${id}-label`} className="min-w-0 text-sm break-words">
        {labelText}
      </span>
    );
  const header = (
    <div className="flex flex-wrap items-center gap-x-1 gap-y-0.5">
      {labelEl}
      {(actions.length > 0 || props.actions) && (
        <span className="ml-auto flex flex-wrap items-center gap-0.5">
          {actions}
          {props.actions}
        </span>
      )}
    </div>
  );
  const notes = (
    <>
      {node.description && (
        <p id={descId} className={`${hintClass} whitespace-pre-wrap`}>
          {node.description}
        </p>
      )}
      {hints && (
        <p id={hintId} className={hintClass}>
          {hints}
        </p>
      )}
      {invalid && (
        <div id={errId}>
          {messages.map((m, i) => (
            <p key={i} className={errorClass} data-testid="field-error">
              {fieldMessage(label, m)}
            </p>
          ))}
        </div>
      )}
    </>
  );

  const inlineCheckbox = node.kind === "boolean" && !node.explicit && !misfit && !isNull;
  if (inlineCheckbox)
    return (
      <div data-pointer={pointer}>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
          {body}
          {labelEl}
          {(actions.length > 0 || props.actions) && (
            <span className="ml-auto flex items-center gap-0.5">
              {actions}
              {props.actions}
            </span>
          )}
        </div>
        {notes}
      </div>
    );
  const grouped = (GROUPS.has(node.kind) || (node.kind === "boolean" && node.explicit)) && !misfit && !isNull;
  if (grouped)
    return (
      <div
        role="group"
        aria-labelledby={`${id}-label`}
        aria-describedby={describedBy}
        data-pointer={pointer}
        className={node.kind === "object" || node.kind === "array" ? fieldsetClass : undefined}
      >
        {header}
        {notes}
        {body && <div className="mt-1">{body}</div>}
      </div>
    );
  return (
    <div data-pointer={pointer} className="space-y-0.5">
      {header}
      {/* A choice's description says what the options are: above the chosen option's fields. */}
      {node.kind === "choice" && !misfit && notes}
      {body}
      {!(node.kind === "choice" && !misfit) && notes}
    </div>
  );
}

/** The properties of an object, the keys the schema does not name, and a key/value editor for `additionalProperties`. */
export function ObjectBody({
  node,
  value,
  pointer,
  onChange,
  label,
}: {
  node: Extract<FormNode, { kind: "object" }>;
  value: unknown;
  pointer: string;
  onChange: (next: unknown) => void;
  label: string;
}) {
  const ctx = useFormContext();
  const object = isObject(value) ? value : {};
  const set = (key: string, next: unknown) => onChange(withKey(object, key, next));
  const known = new Set(node.properties.map((p) => p.name));
  const extras = Object.keys(object).filter((k) => !known.has(k));
  return (
    <div className="space-y-2">
      {node.properties.map((p) => (
        <Field
          key={p.name}
          node={p.node}
          value={object[p.name]}
          pointer={appendPointer(pointer, p.name)}
          label={p.node.title ?? visibleText(p.name)}
          keyName={visibleText(p.name)}
          required={p.required}
          onChange={(next) => set(p.name, next)}
        />
      ))}
      {extras.map((key) => {
        const child = appendPointer(pointer, key);
        const additional = node.additional;
        const remove = (
          <button type="button" className={smallButton} disabled={ctx.disabled} onClick={() => (ctx.touch(child), set(key, undefined))}>
            Remove <span className="sr-only">{key}</span>
          </button>
        );
        if (typeof additional === "object")
          return (
            <Field
              key={key}
              node={additional}
              value={object[key]}
              pointer={child}
              label={key}
              required={false}
              actions={remove}
              onChange={(next) => set(key, next)}
            />
          );
        const reason =
          additional === "forbidden"
            ? `"${key}" is not in the schema, which allows no other properties; it is kept as it is until you remove it.`
            : `"${key}" is not described by the schema; it is kept as it is (edit it as JSON).`;
        return (
          <Field
            key={key}
            node={{ kind: "json", reason: "", at: `${node.at}/additionalProperties`, hasDefault: false, nullable: false }}
            value={object[key]}
            pointer={child}
            label={key}
            required={false}
            actions={remove}
            onChange={(next) => set(key, next)}
            note={reason}
          />
        );
      })}
      {typeof node.additional === "object" && (
        <AddKey object={object} pointer={pointer} label={label} onAdd={(key) => set(key, newItem(node.additional as FormNode))} />
      )}
    </div>
  );
}

/** "Add property": a key for `additionalProperties`, refused when empty or already there. */
function AddKey({
  object,
  pointer,
  label,
  onAdd,
}: {
  object: Record<string, unknown>;
  pointer: string;
  label: string;
  onAdd: (key: string) => void;
}) {
  const ctx = useFormContext();
  const [key, setKey] = useState("");
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const id = `${fieldId(ctx.idPrefix, pointer)}-newkey`;
  const add = () => {
    if (key === "") return setProblem("Type a property name first.");
    if (key in object) return setProblem(`"${key}" is already there; choose another name.`);
    setProblem(undefined);
    setKey("");
    ctx.touch(appendPointer(pointer, key));
    onAdd(key);
  };
  return (
    <div>
      <label htmlFor={id} className={hintClass}>
        New property of {label}
      </label>
      <div className="flex gap-1">
        <input
          id={id}
          className={inputClass}
          value={key}
          disabled={ctx.disabled}
          aria-invalid={problem !== undefined || undefined}
          aria-describedby={problem ? `${id}-err` : undefined}
          onChange={(e) => setKey(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className={`${smallButton} shrink-0`} disabled={ctx.disabled} onClick={add}>
          Add property
        </button>
      </div>
      {problem && (
        <p id={`${id}-err`} className={errorClass}>
          {problem}
        </p>
      )}
    </div>
  );
}

/** The items of an array, each with move up / move down / remove, and "Add item" (within minItems/maxItems). */
function ArrayBody({
  node,
  value,
  pointer,
  onChange,
  label,
  required,
}: {
  node: Extract<FormNode, { kind: "array" }>;
  value: unknown;
  pointer: string;
  onChange: (next: unknown) => void;
  label: string;
  required: boolean;
}) {
  const ctx = useFormContext();
  const items = Array.isArray(value) ? value : [];
  const n = items.length;
  const change = (next: unknown[]) => {
    ctx.touch(pointer);
    // Removing the last item of an optional list leaves the list out, like any emptied optional field.
    onChange(next.length === 0 && !required && (node.minItems ?? 0) === 0 ? undefined : next);
  };
  const atMax = node.maxItems !== undefined && n >= node.maxItems;
  return (
    <div className="space-y-1.5">
      {items.map((item, i) => {
        const itemName = `item ${i + 1} of ${label}`;
        const buttons = (
          <>
            <button
              type="button"
              className={iconButton}
              disabled={ctx.disabled || i === 0}
              aria-label={`Move ${itemName} up`}
              title="Move up"
              onClick={() => change(moveItem(items, i, i - 1))}
            >
              ↑
            </button>
            <button
              type="button"
              className={iconButton}
              disabled={ctx.disabled || i === n - 1}
              aria-label={`Move ${itemName} down`}
              title="Move down"
              onClick={() => change(moveItem(items, i, i + 1))}
            >
              ↓
            </button>
            <button
              type="button"
              className={iconButton}
              disabled={ctx.disabled}
              aria-label={`Remove ${itemName}`}
              title="Remove"
              onClick={() => change(items.filter((_, j) => j !== i))}
            >
              ✕
            </button>
          </>
        );
        return (
          <Field
            key={i}
            node={node.items}
            value={item}
            pointer={appendPointer(pointer, i)}
            label={`Item ${i + 1}`}
            srSuffix={` of ${label}`}
            required={false}
            inArray
            actions={buttons}
            onChange={(next) => {
              const copy = [...items];
              copy[i] = next;
              onChange(copy);
            }}
          />
        );
      })}
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={smallButton}
          disabled={ctx.disabled || atMax}
          onClick={() => change([...items, newItem(node.items)])}
        >
          Add item <span className="sr-only">to {label}</span>
        </button>
        {atMax && <span className={hintClass}>At most {node.maxItems} items.</span>}
        {n === 0 && <span className={hintClass}>{value === undefined ? "Not set." : "No items."}</span>}
      </div>
    </div>
  );
}

/** A chooser for `oneOf`/`anyOf` (or a list of types) and the chosen branch's fields. */
function ChoiceBody({
  node,
  value,
  pointer,
  onChange,
  label,
  id,
  describedBy,
  required,
}: {
  node: Extract<FormNode, { kind: "choice" }>;
  value: unknown;
  pointer: string;
  onChange: (next: unknown) => void;
  label: string;
  id: string;
  describedBy: string | undefined;
  required: boolean;
}) {
  const ctx = useFormContext();
  const picked = pickBranch(ctx.model.root, node.branches, value, ctx.picks[pointer]);
  const choose = (i: number | undefined) => {
    ctx.touch(pointer);
    if (i === undefined) {
      // "(not set)" on an optional choice: the value is left out.
      ctx.setPick(pointer, -1);
      return onChange(undefined);
    }
    ctx.setPick(pointer, i);
    const branch = node.branches[i].node;
    // Keep what is there when it has the branch's shape; else start the branch empty (its consts filled in).
    onChange(value !== undefined && fitsNode(branch, value, true) ? value : emptyValue(branch));
  };
  const branch: Branch | undefined = picked === undefined ? undefined : node.branches[picked];
  return (
    <div className="space-y-1">
      <select
        id={`${id}-choice`}
        data-choice={pointer.slice(1)}
        className={inputClass}
        value={picked === undefined ? "" : String(picked)}
        disabled={ctx.disabled}
        aria-describedby={describedBy}
        onChange={(e) => choose(e.target.value === "" ? undefined : Number(e.target.value))}
      >
        <option value="" disabled={required && picked !== undefined}>
          {required ? "Choose…" : "(not set)"}
        </option>
        {node.branches.map((b, i) => (
          <option key={i} value={String(i)}>
            {b.label}
          </option>
        ))}
      </select>
      {value !== undefined && picked === undefined && (
        <JsonField
          value={value}
          pointer={pointer}
          id={id}
          label={label}
          required={false}
          describedBy={describedBy}
          invalid={false}
          inArray={false}
          onChange={onChange}
          note={`The value ${valueSummary(value)} fits none of the options; it is kept as it is. Edit it as JSON, or choose an option to start over.`}
        />
      )}
      {branch && (
        <div className="border-l-2 border-zinc-200 pl-2 dark:border-zinc-700" data-testid="choice-branch">
          {branch.node.kind === "object" && (value === undefined || isObject(value)) ? (
            <ObjectBody node={branch.node} value={value} pointer={pointer} onChange={onChange} label={label} />
          ) : (
            <Field
              node={branch.node}
              value={value}
              pointer={pointer}
              idSuffix="-branch"
              quiet
              label={`${label} (${branch.label})`}
              required={false}
              onChange={onChange}
            />
          )}
        </div>
      )}
    </div>
  );
}
