// JSX for .tsx files: intrinsic elements and what a component may return.

declare namespace JSX {
    interface Element {
        readonly type: string;
        readonly props: unknown;
        readonly key: string | number | null;
    }
    interface ElementChildrenAttribute {
        children: {};
    }
    interface IntrinsicAttributes {
        key?: string | number;
    }
    type Child = Element | string | number | boolean | null | undefined;
    type Children = Child | readonly Children[];
    interface PointerEventLike {
        readonly clientX: number;
        readonly clientY: number;
        readonly shiftKey: boolean;
        preventDefault(): void;
        stopPropagation(): void;
    }
    interface ChangeEventLike {
        readonly target: { readonly value: string; readonly checked: boolean };
    }
    interface HtmlProps {
        key?: string | number;
        id?: string;
        className?: string;
        title?: string;
        hidden?: boolean;
        role?: string;
        tabIndex?: number;
        style?: Record<string, string | number>;
        children?: Children;
        onClick?: (event: PointerEventLike) => void;
        onPointerDown?: (event: PointerEventLike) => void;
        onPointerUp?: (event: PointerEventLike) => void;
    }
    interface InputProps extends HtmlProps {
        value?: string | number;
        type?: "text" | "number" | "checkbox" | "range" | "color";
        checked?: boolean;
        disabled?: boolean;
        placeholder?: string;
        onChange?: (event: ChangeEventLike) => void;
    }
    interface ButtonProps extends HtmlProps {
        type?: "button" | "submit";
        disabled?: boolean;
    }
    interface SvgProps extends HtmlProps {
        width?: number | string;
        height?: number | string;
        viewBox?: string;
        d?: string;
        fill?: string;
        stroke?: string;
    }
    interface IntrinsicElements {
        div: HtmlProps;
        span: HtmlProps;
        section: HtmlProps;
        header: HtmlProps;
        footer: HtmlProps;
        p: HtmlProps;
        ul: HtmlProps;
        li: HtmlProps;
        label: HtmlProps;
        h2: HtmlProps;
        h3: HtmlProps;
        button: ButtonProps;
        input: InputProps;
        svg: SvgProps;
        path: SvgProps;
    }
}
