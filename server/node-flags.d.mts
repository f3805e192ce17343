export declare const nodeFlags: string[];
