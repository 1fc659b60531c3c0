//! The kinds of change, by their stable names: the report's `kind`, and what an
//! `allow-break` comment names.

macro_rules! kinds {
    ($($kind:ident $name:literal $breaking:literal,)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kind {
            $($kind,)*
        }

        impl Kind {
            pub const ALL: &[Kind] = &[$(Kind::$kind,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Kind::$kind => $name,)*
                }
            }

            /// Whether a host built against the old tree can be wrong against the new one.
            pub fn is_breaking(self) -> bool {
                match self {
                    $(Kind::$kind => $breaking,)*
                }
            }
        }
    };
}

kinds! {
    ModuleRemoved "module_removed" true,
    ModuleMoved "module_moved" true,
    ModuleRenamed "module_renamed" true,
    ModuleAdded "module_added" false,
    ConstRemoved "const_removed" true,
    ConstTypeChanged "const_type_changed" true,
    ConstValueChanged "const_value_changed" true,
    ElementChanged "element_changed" true,
    ElementRemoved "element_removed" true,
    ElementMoved "element_moved" true,
    ElementAdded "element_added" false,
    ConstAdded "const_added" false,
    FnRemoved "fn_removed" true,
    FnParamsChanged "fn_params_changed" true,
    FnReturnChanged "fn_return_changed" true,
    FnAdded "fn_added" false,
    StructRemoved "struct_removed" true,
    FieldRemoved "field_removed" true,
    FieldTypeChanged "field_type_changed" true,
    FieldMoved "field_moved" true,
    FieldAdded "field_added" false,
    StructAdded "struct_added" false,
    NotCompared "not_compared" false,
}

impl Kind {
    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.as_str() == name)
    }

    /// Whether the kind is about a whole module (allowed by a comment anywhere in it).
    pub fn is_module_kind(self) -> bool {
        matches!(
            self,
            Kind::ModuleRemoved | Kind::ModuleMoved | Kind::ModuleRenamed | Kind::ModuleAdded
        )
    }

    /// The breaking kinds, which an `allow-break` comment may name.
    pub fn breaking() -> impl Iterator<Item = Kind> {
        Kind::ALL.iter().copied().filter(|k| k.is_breaking())
    }
}
